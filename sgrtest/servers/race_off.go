//go:build !race

package servers

// raceBuild says the tests were built with -race.
const raceBuild = false
