"""`asl-kb serve`: a local web app where a position is built on the hex map
and every legal outcome is shown as it changes (docs/serve.md).

Starlette and uvicorn (the `serve` extra) are imported only here, never by
the rest of the CLI. The app edits the position's YAML tree, checks it with
the loader and answers it with the engine, each answer in a child process
under the CLI's --timeout/--max-memory caps (asl_kb/serve/work.py).
"""
