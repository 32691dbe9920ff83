"""The rules committee's questions, answered by search over positions.

* rulesets.py -- what may be compared: `current`, `prior`, one switch of
  rules/core/versions.lp flipped, or a folder of .lp files overlaying the
  shipped rules (a proposed erratum written as rules);
* compare.py  -- one position under two rule sets: the outcomes that appear
  or vanish, what causes each, the clauses that fired on one side only;
* corpus.py   -- `asl-kb diff PATH...`: files, folders and globs, one table;
* scope.py    -- a bounded family of positions, as YAML data;
* enumerate.py -- the positions of a scope, smallest first, one per symmetry class;
* search.py   -- `asl-kb search diff`: the smallest positions where two rule sets part;
* cli.py      -- the command-line wiring of the above.
"""
