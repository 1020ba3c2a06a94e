/*
 * zng-compress: compresses blocks as the Second Life viewer does (zip_llsd): deflateInit(level 9,
 * i.e. Z_BEST_COMPRESSION; windowBits 15, memLevel 8, default strategy), then one
 * deflate(Z_FINISH) over the whole block into a buffer of deflateBound bytes.
 *
 * Link against zlib-ng built with ZLIB_COMPAT=ON (see build-and-write.mjs).
 *
 * Protocol (stdin -> stdout), so one process handles many blocks:
 *   input:  repeated [uint32 little-endian length][length bytes]
 *   output: repeated [uint32 little-endian length][compressed bytes], one per input record.
 * With the argument --version it prints zlibVersion() and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int read_exact(unsigned char *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        size_t r = fread(buf + got, 1, n - got, stdin);
        if (r == 0) return got == 0 ? 0 : -1;
        got += r;
    }
    return 1;
}

static void write_u32(unsigned long v) {
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
    fwrite(b, 1, 4, stdout);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", zlibVersion());
        return 0;
    }
    for (;;) {
        /* 1. One record: its length, then its bytes. */
        unsigned char lenb[4];
        int r = read_exact(lenb, 4);
        if (r == 0) break;
        if (r < 0) { fprintf(stderr, "zng-compress: truncated length\n"); return 2; }
        unsigned long n = lenb[0] | (lenb[1] << 8) | ((unsigned long)lenb[2] << 16) | ((unsigned long)lenb[3] << 24);
        unsigned char *in = malloc(n ? n : 1);
        if (!in) return 3;
        if (n && read_exact(in, n) != 1) { fprintf(stderr, "zng-compress: truncated block\n"); return 2; }

        /* 2. deflateInit(Z_BEST_COMPRESSION) + one deflate(Z_FINISH), as zip_llsd. */
        z_stream strm;
        memset(&strm, 0, sizeof strm);
        if (deflateInit(&strm, Z_BEST_COMPRESSION) != Z_OK) { fprintf(stderr, "zng-compress: deflateInit failed\n"); return 4; }
        unsigned long cap = deflateBound(&strm, n) + 64;
        unsigned char *out = malloc(cap);
        if (!out) return 3;
        strm.next_in = in;
        strm.avail_in = (unsigned)n;
        strm.next_out = out;
        strm.avail_out = (unsigned)cap;
        int ret = deflate(&strm, Z_FINISH);
        if (ret != Z_STREAM_END) { fprintf(stderr, "zng-compress: deflate returned %d\n", ret); return 4; }
        unsigned long outLen = cap - strm.avail_out;
        deflateEnd(&strm);

        /* 3. The compressed record. */
        write_u32(outLen);
        fwrite(out, 1, outLen, stdout);
        free(in);
        free(out);
    }
    fflush(stdout);
    return 0;
}
