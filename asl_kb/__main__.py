import sys

from asl_kb.cli import main

sys.exit(main())
