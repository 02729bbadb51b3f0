package tests

// examples/outside is a module of its own (its go.mod replaces this module
// with the checkout), so go test ./... and go vet ./... here leave it out;
// .ci/run tests it in its directory. The walk in TestLayers still finds its
// package, and its layer holds it to what a program outside the module can
// import: the public graph and checkpoint packages, no eino.
func init() {
	layers["examples/outside"] = layer{[]string{"graph", "checkpoint"}, false}
}
