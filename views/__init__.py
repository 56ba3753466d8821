"""Flet pages. They render projections from companion/ and send typed actions; no rules here."""
