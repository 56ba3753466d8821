"""Test harnesses: an in-process Flet session over a fake connection, and a real-server launcher."""
