// Compiles the suites' precompiled header (tests/CMakeLists.txt); nothing else lives here.
