"""Work-arounds for flet-web 1.0.5, applied once by the server at start-up (`apply`). Each one is
checked by tests/test_flet_patches.py, which fails when a Flet upgrade changes what it relies on.
They are sorted by purpose, one module each, with a record in docs/decisions/ of why they exist
and of the upstream change that would replace them:

- hardening.py, one device kept from hurting the others (docs/decisions/flet-patches-hardening.md):
  1. disconnects that never reach the page; 3. events for controls not on the page, dropped at
  O(1); 4. one bounded event lane per connection; 5. connections that fail before registering,
  cleaned up; 6. properties a client sets that no control declares, or of another type, ignored.
- speed.py, the same work as Flet's for less (docs/decisions/flet-patches-speed.md): 2. no debug
  string per message sent; 10. no empty validation-error set on every control; 11. the diff's
  walks read only the fields that can hold something; 12. an event's payload type found once per
  control class and event; 13. a control built without a call per field it leaves at its default.
- fonts.py, the app's font loaded before the first frame (docs/decisions/flet-patches-fonts.md): 7.
- drawing.py, drawing with reused parts (docs/decisions/flet-patches-drawing.md): 8. a control kept
  as it was under a redrawn parent stays mounted; 9. one child of a shown control, replaced and
  sent alone.
- memory.py, a control in less memory (docs/decisions/flet-patches-memory.md): 14. the attributes
  Flet gives a control when it is first sent, put in its class's shared layout at start-up.

`apply` replaces Flet's functions (PATCHED) in one order, keeping Flet's own versions in ORIGINALS.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from views.flet_patches import drawing, fonts, hardening, memory, speed

_applied = False


def _fletapp() -> Any:
    from flet_web.fastapi.flet_app import FletApp

    return FletApp


def _session() -> Any:
    from flet.messaging.session import Session

    return Session


def _diff_builder() -> Any:
    from flet.controls.object_patch import DiffBuilder

    return DiffBuilder


def _validation() -> Any:
    import flet.utils.validation as validation

    return validation


def _base_control_module() -> Any:
    import flet.controls.base_control as base_control

    return base_control


#: what `apply` replaces: (name, class, attribute); Flet's own versions are kept in ORIGINALS
PATCHED: tuple[tuple[str, Callable[[], Any], str], ...] = (
    ("FletApp.handle", _fletapp, "handle"),
    ("FletApp.__receive_loop", _fletapp, "_FletApp__receive_loop"),
    ("FletApp.__send_loop", _fletapp, "_FletApp__send_loop"),
    ("FletApp.send_message", _fletapp, "send_message"),
    ("Session.__resolve_event_control", _session, "_Session__resolve_event_control"),
    ("Session.apply_patch", _session, "apply_patch"),
    ("DiffBuilder._compare_dataclasses", _diff_builder, "_compare_dataclasses"),
    ("DiffBuilder._maybe_compare_dataclasses", _diff_builder, "_maybe_compare_dataclasses"),
    ("DiffBuilder._removed_controls", _diff_builder, "_removed_controls"),
    ("DiffBuilder._configure_dataclass", _diff_builder, "_configure_dataclass"),
    ("validation._get_reported_validation_errors", _validation, "_get_reported_validation_errors"),
    ("get_event_field_type", _base_control_module, "get_event_field_type"),
)
ORIGINALS: dict[str, Any] = {}


def apply() -> None:
    global _applied
    if _applied:
        return
    from flet.messaging.session import Session
    from flet_web.fastapi.flet_app import FletApp

    for name, owner, attribute in PATCHED:
        ORIGINALS[name] = getattr(owner(), attribute)
    FletApp._FletApp__send_loop = hardening._wrap_send_loop(FletApp._FletApp__send_loop)  # type: ignore[attr-defined]
    FletApp.send_message = speed._send_message  # type: ignore[method-assign]
    Session._Session__resolve_event_control = hardening._resolve_event_control  # type: ignore[attr-defined]
    FletApp._FletApp__receive_loop = hardening._receive_loop  # type: ignore[attr-defined]
    FletApp.handle = hardening._handle  # type: ignore[method-assign]
    Session.apply_patch = hardening._wrap_apply_patch(ORIGINALS["Session.apply_patch"])  # type: ignore[method-assign]
    DiffBuilder = _diff_builder()
    DiffBuilder._compare_dataclasses = drawing._noting_retained(ORIGINALS["DiffBuilder._compare_dataclasses"])
    DiffBuilder._maybe_compare_dataclasses = drawing._noting_retained(ORIGINALS["DiffBuilder._maybe_compare_dataclasses"])
    DiffBuilder._removed_controls = speed._removed_controls
    DiffBuilder._configure_dataclass = speed._configure_dataclass
    _validation()._get_reported_validation_errors = speed._reported_validation_errors
    base_control = _base_control_module()
    base_control.get_event_field_type = speed._once_per_class(ORIGINALS["get_event_field_type"], vars(base_control))
    import flet

    speed._fast_inits()
    memory.lay_out_all(speed.ORIGINAL_INITS)
    ORIGINALS["flet.__getattr__"] = flet.__getattr__
    flet.__getattr__ = speed._fast_inits_for_lazy_names(flet.__getattr__, then=lambda: memory.lay_out_all(speed.ORIGINAL_INITS))  # type: ignore[attr-defined]
    import flet_web.fastapi.flet_static_files as flet_static_files

    ORIGINALS["patch_font_manifest_json"] = flet_static_files.patch_font_manifest_json
    flet_static_files.patch_font_manifest_json = fonts._with_app_fonts(flet_static_files.patch_font_manifest_json)
    _applied = True


def is_applied() -> bool:
    return _applied

