"""Developer tooling of asl-kb, not installed with the package: the case
runner (casebook.py), `make mutate` (mutate/), the generated pages
(catalogue.py, rulings.py). It imports asl_kb; asl_kb never imports it."""
