"""Work run beside the caller: a function in a forked child process (a thread where there is no fork), its answer
collected without waiting (the editor's background check and overview) or waited for (``render``'s check)."""
