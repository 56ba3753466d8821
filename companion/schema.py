"""Write the JSON Schema of the exported log to docs/ (`uv run python -m companion.schema`)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.room import ExportedLog

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "log.schema.json"


def log_schema() -> str:
    return json.dumps(ExportedLog.model_json_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    SCHEMA_PATH.write_text(log_schema(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
