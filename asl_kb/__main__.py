from asl_kb.cli import run

run()
