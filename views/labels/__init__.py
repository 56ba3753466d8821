"""The pages' labels (codes -> English): `LABELS` of `pages` (the shared screens) and of one
module per game, named by its id. Plain dicts, no Flet: views/i18n.py composes them with
companion's messages into the pages' translator, and tools/i18n_sync.py reads them."""
