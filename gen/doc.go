// Package gen is rolegen's generator: it loads Go packages, reads and
// checks their role annotations, and renders one file per role with
// jennifer.
//
// Generate does no file I/O besides loading: it returns the files to write
// (or the diagnostics that prevent it), and Write puts them on disk, each
// through a temporary file and a rename, skipping files whose bytes did
// not change. Nothing is written when any diagnostic is found.
package gen
