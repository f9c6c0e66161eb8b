// Command prebuild builds the Temporal dev server the adapter's tests
// start, if no current build of it is cached, and prints its path: CI
// runs it in the background from its start, so that the tests find the
// server built.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rolegen/rolegen/temporal/internal/testserver"
)

func main() {
	start := time.Now()
	bin, built, err := testserver.Build(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if built {
		fmt.Printf("%s built in %.0f s\n", bin, time.Since(start).Seconds())
	} else {
		fmt.Printf("%s current\n", bin)
	}
}
