"""Pure rules, rooms and storage for the table referee. Nothing here imports Flet."""
