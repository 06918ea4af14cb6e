/* format.h - the version of the layout of the JSON documents iochar
 * writes (run JSON, results.json). Readers refuse a newer one. Raise it
 * when a member changes meaning or disappears; adding members does not
 * need it. See docs/output.md. Writers and readers include this alone, so
 * a reader (report/) needs nothing of the writers. */
#ifndef IOCHAR_BASE_FORMAT_H
#define IOCHAR_BASE_FORMAT_H

#define IOCHAR_FORMAT_VERSION 1

#endif
