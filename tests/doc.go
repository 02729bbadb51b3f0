// Package tests holds black-box tests that span packages: the import layers,
// end-to-end turns, golden transcripts and benchmarks.
//
// # Transcripts
//
// TestTranscripts pins whole turns of the default graph with the files of
// testdata/transcripts, one or more per path of the graph. A file holds
// the input and the expected output together, in the format of etcd raft's
// and CockroachDB's datadriven tests (sgrtest.RunDataDriven):
//
//	# comment lines
//	command key=value ...
//	input lines
//	----
//	expected output
//	(a blank line ends the case)
//
// An output with blank lines in it sits between "----" "----" lines. The
// commands run in order; what config and model set lasts to the end of the
// file, and each run builds a new agent from it:
//
//	config KEY=VALUE ...   lay keys of the configuration file over the defaults: a
//	                       dotted key (guard.mode=report), a YAML value, a list
//	                       of strings in parentheses (guardian.policy.forbidden_topics=(salary))
//	model offline          the offline engine, the default
//	model scripted         an sgrtest.ScriptedModel, one reply per input line:
//	                       call TOOL JSON | text CONTENT | fail MESSAGE
//	run [role=R] [lang=L] [session=S]
//	                       one turn, the input its user message; the output is
//	                       sgrtest.Transcript of the state, and for a scripted
//	                       model how many calls it got for how many replies
//
// A changed line of any output fails the test. After a deliberate change,
//
//	go test ./tests -run TestTranscripts -update
//
// rewrites the outputs, keeping the comments, commands and inputs; read the
// diff before committing it.
package tests
