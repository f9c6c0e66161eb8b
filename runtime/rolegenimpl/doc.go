// Package rolegenimpl holds what the files rolegen generates call and
// nothing else: the state hash helpers, strict decoding of an action's
// JSON arguments, encoding of its result, the errors of a generated
// Perform, and the versions of generated code it builds. It is part of rolegen's runtime, the only non-standard package
// a generated file imports besides package runtime itself.
//
// Programs never import it: everything a program uses is in package
// runtime. Its names may change with the generator that calls them, and
// generated files are regenerated with the rolegen that matches the
// runtime they build against: each checks, when it compiles, that its
// version is one this runtime builds (MinVersion, MaxVersion).
package rolegenimpl
