// The window's entry: it sends the first screen's slow reads, then loads the window's code (a chunk of its own), so
// that the answers are on their way while that code is fetched, parsed and run.
import { sendFirstReads } from './firstReads'

sendFirstReads()
void import('./window')
