//go:build !linux

package testserver

import "os/exec"

func setPdeathsig(*exec.Cmd) {}
