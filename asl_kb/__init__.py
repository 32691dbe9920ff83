"""asl-kb: ASL Rout Phase and surrender rules in Answer Set Programming."""
