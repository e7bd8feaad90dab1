"""Health checks administrators look for first: disk paths, the error log, paging space in use,
file systems nearly full, and how old the firmware and VIOS levels are."""
