//go:build !unix

package testserver

import "os/exec"

func lockFile(string) (func(), error) { return func() {}, nil }

func setParentDeath(*exec.Cmd) {}
