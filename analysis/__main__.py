"""python3 -m analysis {sweep,plot,report}"""
import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
