// Package gcltest holds the test that builds golangci-lint with rolegen's
// module plugin (github.com/rolegen/rolegen/analyzer/gclplugin) from this
// checkout, the way golangci-lint custom does with a plugin's path: key,
// and runs it on a module with rolegen mistakes, before its first go
// generate and after it. It is a module of its own because golangci-lint
// is a large dependency that the rest of rolegen does not need:
//
//	cd analyzer/gclplugin/gcltest && go test -timeout 30m ./...
//
// The first run downloads golangci-lint's source and dependencies through
// the module proxy and builds it (5 minutes on two cores with empty
// caches; give go test -timeout 30m on a busy machine); the binary is kept
// in the user's cache directory under a name that says what it was built
// from, so later runs only check that it is current (half a minute in
// all).
package gcltest
