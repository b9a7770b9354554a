"""doiname's build: the modules behind ``python3 build.py build | serve | test``.

Standard library only. It may run pinned npm tools (from ``node_modules``), ``pip`` and
``apt-get``; it never downloads a browser, a toolchain or a CDN file. See README.md here
for what each module holds and the order they may import each other in.
"""
