#!/usr/bin/env python3
"""readme_program.py README EXAMPLE - the README's ```fortran program is EXAMPLE, line for
line, so the program README shows is the one ctest runs (fortran_ex_per_thread_slices)."""
import re
import sys

readme = open(sys.argv[1]).read()
blocks = re.findall(r'^```fortran\n(.*?)^```$', readme, re.S | re.M)
example = open(sys.argv[2]).read()
if len(blocks) != 1:
    sys.exit(f'README: expected one ```fortran block, found {len(blocks)}')
if blocks[0] != example:
    sys.exit(f'README: the ```fortran block differs from {sys.argv[2]}')
print('readme: the Fortran program is fortran/examples/per_thread_slices.f90')
