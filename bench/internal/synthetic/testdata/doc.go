// Package synthetic holds the tests and benchmarks of bench's synthetic
// role families. It is the root package of the module that
// bench/internal/synthetic writes, beside a package for each family; it is
// never built in bench itself.
package synthetic
