/**
 * Property tests draw arrays of up to about 100 elements (fast-check's "medium" size) wherever their
 * maxLength allows. fast-check's default ("small") caps a drawn array at 10 elements whatever its
 * maxLength says, so a test of 400 queue operations ran at most 10: too few to leave the small
 * forms (a timer queue becomes a log past 8 timers, a changelog spans chunks, a map grows layers).
 * A test that needs more still says so with `size: 'max'`.
 */
import fc from 'fast-check';

fc.configureGlobal({ ...fc.readConfigureGlobal(), baseSize: 'medium' });
