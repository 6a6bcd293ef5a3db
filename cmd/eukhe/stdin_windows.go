package main

import (
	"io"
	"os"
)

// pollableStdin is standard input as it is: Windows' pipes are not read
// through the runtime's poller.
func pollableStdin() io.Reader { return os.Stdin }
