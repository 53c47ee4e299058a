// Package stats holds the -z statistics. Each is one stats.Stat, made by
// name in New (the one place they are registered) and listed by -z help;
// it says what of the run it reads (Reads: every frame, the records
// shown, their trees) and prints a table at the end.
//
// Frame runs on the goroutine that reads the capture, Record on the back
// end's, in record order: a statistic that reads both keeps what each
// writes apart (io,stat). Tables are bounded (maxStatRows and the like):
// past their bound they count what they do not list.
//
// Most follow tshark's layout so that scripts written for tshark read
// them (conv, endpoints, io,stat, io,phs, expert, follow); the Minecraft
// ones (mc,stat, conv,mc, mc,servers, mc,rtt, mc,exchanges, follow,mc)
// read fields by their role (dissect.Role), whatever the protocol.
package stats
