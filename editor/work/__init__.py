"""Work beside the window: long tasks on a worker thread, calls in a child process, the background check, the collector policy."""
