"""The host on the home network: which addresses phones can join at, and what to tell a player
whose phone cannot reach it.

- `interface_addresses()` reads the machine's interface table (psutil): nothing is sent anywhere.
- `JoinAddress` is one way in (interface name, IPv4 address, the URL phones open);
  `JoinAddresses` is the running host's list of them and the one in use now (mutable: the host
  may pick another interface on the board, and later QR codes and links use it).
- `CAUSES` are the usual reasons phones cannot reach a host, in plain words.
- `check_report()` / `check_page_html()` build the connectivity check page (`/check`): tiny HTML
  with no JavaScript, so it loads on any phone even where websockets are blocked.
"""

from __future__ import annotations

import html
import ipaddress
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from companion.i18n import LANGUAGES, Translator, translator

#: Codes -> English of the check page and its causes (the host board's join help says them too,
#: in its own labels: views/labels/pages.py); registered in companion.i18n.MESSAGE_MODULES.
MESSAGES: dict[str, str] = {
    "lan.check.title": "This phone reached the table host",
    "lan.check.host": "Table host: {address}",
    "lan.check.join": "Players join at: {address}",
    "lan.check.phone": "This phone's address, as the host sees it: {address}",
    "lan.check.open_game": "Open the game",
    "lan.check.others": "If other phones cannot reach the host:",
    "lan.cause.guest_wifi": "Guest Wi-Fi: guest networks keep devices apart. Put the host and every phone on the main Wi-Fi.",
    "lan.cause.isolation": "Client isolation (also called AP isolation): some routers and public hotspots stop devices from talking to each other. Turn it off in the router's Wi-Fi settings, or use a phone's hotspot for everyone.",
    "lan.cause.vpn": "A VPN on a phone or on the host sends its traffic elsewhere. Pause the VPN during the game.",
    "lan.cause.firewall": "The host's firewall blocks the game. Allow incoming connections to port {port} (TCP) on this computer, for private networks.",
    "lan.cause.mobile_data": "The phone is on mobile data, not Wi-Fi. Turn on Wi-Fi and join the same network as the host.",
    "lan.cause.wrong_address": "Wrong address, or the host is asleep. Type the address exactly as shown on the board, keep the host computer awake, and check that this program is still running.",
}

#: The causes, most common first.
CAUSES: tuple[str, ...] = (
    "lan.cause.guest_wifi",
    "lan.cause.isolation",
    "lan.cause.vpn",
    "lan.cause.firewall",
    "lan.cause.mobile_data",
    "lan.cause.wrong_address",
)


class InterfaceAddress(BaseModel):
    """One IPv4 address of one network interface of this machine."""

    model_config = ConfigDict(frozen=True)

    interface: str
    ip: str

    @property
    def private(self) -> bool:
        return ipaddress.ip_address(self.ip).is_private


class JoinAddress(BaseModel):
    """One way for phones to reach this host."""

    model_config = ConfigDict(frozen=True)

    #: the interface's name ("wlan0", "Wi-Fi"), or "" when given by hand (--public-url)
    interface: str = ""
    ip: str = ""
    #: the base URL phones open, e.g. http://192.168.1.20:8550
    url: str

    def title(self) -> str:
        """How the picker names it: "wlan0 · 192.168.1.20", or the URL alone."""
        return f"{self.interface} · {self.ip}" if self.interface and self.ip else self.url


class JoinAddresses(BaseModel):
    """The running host's join addresses and the one in use now (shared by every page of the
    host process: choosing another changes the QR codes and links drawn from then on)."""

    model_config = ConfigDict(validate_assignment=True)

    current: str
    choices: list[JoinAddress] = Field(default_factory=list)

    def options(self) -> list[JoinAddress]:
        """The choices, with the current URL among them even when it was given by hand."""
        if any(choice.url == self.current for choice in self.choices):
            return list(self.choices)
        return [JoinAddress(url=self.current), *self.choices]

    def choose(self, url: str) -> bool:
        """Use another of the known addresses; False (and no change) for an unknown one."""
        if not isinstance(url, str) or url not in {choice.url for choice in self.options()}:
            return False
        self.current = url
        return True


def interface_addresses() -> list[InterfaceAddress]:
    """IPv4 addresses of this machine's interfaces (no loopback, no link-local), private LAN
    ones first. Read from the interface table: nothing is sent anywhere to find them. Without
    psutil (no wheel on Android and iOS), from the routing table instead."""
    try:
        import psutil
    except ImportError:
        found = routed_addresses()
    else:
        found = set()
        for name, addresses in psutil.net_if_addrs().items():
            for address in addresses:
                if address.family.name == "AF_INET" and usable(address.address):
                    found.add(InterfaceAddress(interface=name, ip=address.address))
    return sorted(found, key=lambda a: (not a.private, ipaddress.ip_address(a.ip), a.interface))


#: Destinations whose routes name this machine's LAN addresses: the three private ranges and a
#: documentation address (the default route). Nothing is sent to them (below).
ROUTE_PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254", "192.0.2.1")


def routed_addresses() -> set[InterfaceAddress]:
    """The addresses this machine would send from towards each of ROUTE_PROBES: `connect()` on a
    UDP socket only picks the route and the source address, it sends no packet. The interface
    names are not known this way."""
    import socket

    found: set[InterfaceAddress] = set()
    for probe in ROUTE_PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
            except OSError:  # no route there
                continue
            ip = udp.getsockname()[0]
        if usable(ip):
            found.add(InterfaceAddress(interface="", ip=ip))
    return found


def usable(ip: str) -> bool:
    """An address a phone could reach: not loopback, not link-local, not unspecified."""
    address = ipaddress.ip_address(ip)
    return not (address.is_loopback or address.is_link_local or address.is_unspecified)


def lan_addresses() -> list[str]:
    """The IPv4 addresses alone, private LAN ones first, each once."""
    seen: dict[str, None] = {}
    for address in interface_addresses():
        seen.setdefault(address.ip, None)
    return list(seen)


def join_addresses(port: int, found: Sequence[InterfaceAddress] | None = None, scheme: str = "http") -> list[JoinAddress]:
    """One join address per interface address, in `interface_addresses()` order."""
    found = interface_addresses() if found is None else found
    return [JoinAddress(interface=a.interface, ip=a.ip, url=f"{scheme}://{a.ip}:{port}") for a in found]


def port_of(url: str) -> int:
    from urllib.parse import urlsplit

    split = urlsplit(url)
    return split.port or (443 if split.scheme == "https" else 80)


def causes(tr: Translator, port: int) -> list[str]:
    return [tr.t(code, port=port) for code in CAUSES]


# -- the connectivity check page --------------------------------------------------------------


def check_language(accept_language: str | None, override: str | None = None) -> str:
    """The page's language: `?lang=` if it names one we have, else the first of the phone's
    Accept-Language we have (by weight), else English."""
    if override and override.lower() in LANGUAGES:
        return override.lower()
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = tag.strip().lower().split("-")[0]
        if language in LANGUAGES and weight > 0:
            ranked.append((-weight, position, language))
    return min(ranked)[2] if ranked else "en"


class CheckReport(BaseModel):
    """What `/check.json` answers: the phone reached the host, at which address, from which."""

    reached: bool = True
    lang: str
    title: str
    #: the address this request came in on (what the phone opened)
    host: str
    #: the address players join at now (the board's QR codes)
    join_url: str
    #: the phone's address as the server saw it
    client_ip: str
    game_url: str
    causes: list[str]


def check_report(lang: str, *, host: str, join_url: str, client_ip: str, port: int) -> CheckReport:
    tr = translator(lang)
    return CheckReport(
        lang=tr.lang,
        title=tr.t("lan.check.title"),
        host=host,
        join_url=join_url,
        client_ip=client_ip,
        game_url=f"{host}/",
        causes=causes(tr, port),
    )


def check_page_html(report: CheckReport) -> str:
    """The check page: readable on any phone, no script, no external file."""
    tr = translator(report.lang)

    def e(text: str) -> str:
        return html.escape(text, quote=False)  # text nodes; attributes use html.escape(quote=True)

    items = "".join(f"<li>{e(cause)}</li>" for cause in report.causes)
    lines = [tr.t("lan.check.host", address=report.host), tr.t("lan.check.phone", address=report.client_ip)]
    if report.join_url != report.host:
        lines.insert(1, tr.t("lan.check.join", address=report.join_url))
    paragraphs = "".join(f"<p>{e(line)}</p>" for line in lines)
    return (
        f'<!doctype html><html lang="{html.escape(report.lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{e(report.title)}</title>"
        "<style>body{font:18px/1.5 sans-serif;margin:1em;background:#0B3D2E;color:#F1F8E9}"
        "h1{color:#A5D6A7;font-size:1.5em}a{color:#FFD54F;font-size:1.3em}li{margin:.4em 0}</style></head><body>"
        f'<h1 id="reached">✓ {e(report.title)}</h1>{paragraphs}'
        f'<p><a id="open-game" href="{html.escape(report.game_url)}">{e(tr.t("lan.check.open_game"))}</a></p>'
        f'<h2>{e(tr.t("lan.check.others"))}</h2><ul id="causes">{items}</ul></body></html>'
    )
