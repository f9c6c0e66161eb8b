// Rolevet checks rolegen annotations as a go vet tool:
//
//	go install github.com/rolegen/rolegen/cmd/rolevet
//	go vet -vettool=$(which rolevet) ./...
//
// It reports the problems rolegen would report, at the same positions,
// without generating anything.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/rolegen/rolegen/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
