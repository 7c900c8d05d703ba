"""A third party's module that calls sys.exit as it is imported (a script's `main()` left at the bottom)."""

import sys

sys.exit(4)
