// Package rolegenimpl holds what the files rolegen generates call and
// nothing else: the state hash helpers, strict decoding of an action's
// JSON arguments, encoding of its result, and the errors of a generated
// Perform. It is part of rolegen's runtime, the only non-standard package
// a generated file imports besides package runtime itself.
//
// Programs never import it: everything a program uses is in package
// runtime. Its names may change with the generator that calls them, and
// generated files are regenerated with the rolegen that matches the
// runtime they build against.
package rolegenimpl
