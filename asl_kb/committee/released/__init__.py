"""The clauses of each released rules version, one JSON file per version
(`VERSION.json`: `{"version", "files": {rules file: [clause texts]}}`),
written by `python -m tools.rule_versions` when a release is cut: what a
rules folder naming the version it edits (overlay.toml, committee/stale.py)
is read against, without the shipped rules' git history."""
