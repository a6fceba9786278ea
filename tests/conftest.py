import sys
from pathlib import Path

# the toy game and shared test helpers live beside the tests
sys.path.insert(0, str(Path(__file__).parent))
