package rolegenimpl

// The versions of generated code this runtime builds. A generated file
// calls functions of this package and of package runtime whose names and
// signatures change with the generator; it states the version of the
// generator that wrote it (3, say) and checks it when it compiles:
//
//	const (
//		_ = rolegenimpl.GoGenerateAgain(3 - rolegenimpl.MinVersion)
//		_ = rolegenimpl.RequireNewerRolegen(rolegenimpl.MaxVersion - 3)
//	)
//
// A file older than MinVersion (rolegen was updated, the file was not
// generated again) or newer than MaxVersion (a newer rolegen than the
// module requires wrote it) makes one of the differences negative, which
// the unsigned types cannot hold. The compiler stops at that line, before
// the calls that no longer match, and its message names what to do:
// "constant -1 overflows rolegenimpl.GoGenerateAgain".
//
// MaxVersion is the version rolegen writes today. It rises when the
// generator starts to call something the runtime did not have;
// MinVersion rises to it when the runtime stops providing something an
// older generated file calls.
const (
	MinVersion = 1
	MaxVersion = 1
)

// GoGenerateAgain holds a generated file's version less MinVersion: it
// overflows for a file that an older rolegen wrote, which `go generate`
// writes again.
type GoGenerateAgain uint

// RequireNewerRolegen holds MaxVersion less a generated file's version:
// it overflows for a file that a newer rolegen wrote than the module
// requires (go get the newer one, or go generate with this one).
type RequireNewerRolegen uint
