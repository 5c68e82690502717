"""`python -m capturefast` runs the command line."""

from __future__ import annotations

import sys

from capturefast.cli import main

sys.exit(main())
