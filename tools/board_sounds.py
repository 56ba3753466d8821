"""Write the host board's optional sounds (assets/sounds/*.wav): short, soft tones made here, so
the app ships them and plays them offline (views/sound.py). Deterministic: the same bytes each run.

    uv run python tools/board_sounds.py
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "sounds"
RATE = 22_050
#: (frequency Hz, seconds) notes of each sound: a turn's soft two-note chime, a reveal's rising
#: three notes, a shootout's low double knock
SOUNDS: dict[str, list[tuple[float, float]]] = {
    "turn": [(660.0, 0.12), (880.0, 0.18)],
    "reveal": [(523.3, 0.1), (659.3, 0.1), (784.0, 0.22)],
    "shootout": [(196.0, 0.12), (0.0, 0.06), (196.0, 0.2)],
}
VOLUME = 0.35


def samples(notes: list[tuple[float, float]]) -> list[int]:
    out: list[int] = []
    for frequency, seconds in notes:
        count = int(RATE * seconds)
        for i in range(count):
            # a quick attack and a smooth decay: no click at either end
            envelope = min(1.0, i / (0.01 * RATE)) * (1 - i / count) ** 2
            value = math.sin(2 * math.pi * frequency * i / RATE) if frequency else 0.0
            out.append(int(32767 * VOLUME * envelope * value))
    return out


def write(name: str, path: Path) -> None:
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(b"".join(struct.pack("<h", s) for s in samples(SOUNDS[name])))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        write(name, OUT / f"{name}.wav")
        print(OUT / f"{name}.wav")


if __name__ == "__main__":
    main()
