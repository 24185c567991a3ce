package host

// System is this machine's process table.
func System() Procs { return ProcFS{Root: "/proc"} }
