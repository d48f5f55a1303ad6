/* gate.h - `lit serve`'s listening socket, in front of libwebsockets
 * (net.c): it accepts, counts per address the connections whose handshake
 * is not over, closes those whose handshake takes too long, and waits
 * instead of spinning when the process is out of file handles
 * (docs/PROTOCOL.md, "Limits"). It knows no libwebsockets: each connection
 * it lets in goes to GateConfig.adopt. */
#ifndef LIT_SERVER_GATE_H
#define LIT_SERVER_GATE_H

struct ev_loop;

enum {
    GATE_PENDING_MAX = 8,    /* connections from one address whose handshake is not over */
    GATE_HANDSHAKE_MS = 5000, /* a connection's time for its first request */
    GATE_LOG_MS = 1000,       /* at most one line a kind of trouble this often */
    /* a peer gone without a word (its machine off, its network lost) is
     * found by TCP: probed after GATE_IDLE_S silent seconds, every
     * GATE_PROBE_S, dropped after GATE_PROBES unanswered, or when data
     * sent stays unacknowledged GATE_UNACKED_MS */
    GATE_IDLE_S = 60,
    GATE_PROBE_S = 10,
    GATE_PROBES = 3,
    GATE_UNACKED_MS = 90000
};

typedef struct Gate Gate;
typedef struct GateConn GateConn; /* a connection whose handshake is not over */
typedef struct GatePeers GatePeers; /* the addresses' handshakes, for gates alike */

enum { GATE_PORT_ALONE, GATE_PORT_FIRST, GATE_PORT_JOIN };

typedef struct GateConfig {
    struct ev_loop *loop;
    const char *bind; /* an IPv4 address */
    int port;         /* 0: any free one */
    /* an address not counted (the trusted proxy: every client comes
     * through it; its handshakes are timed all the same), or NULL */
    const char *exempt;
    /* Takes an accepted connection (fd): its handle (given to expire),
     * after which conn is given back with gate_done once the handshake
     * is over or the connection gone; NULL when it could not (the fd
     * closed by it; conn not to be given back). */
    void *(*adopt)(int fd, GateConn *conn, void *ctx);
    /* The handshake of handle's connection has taken GATE_HANDSHAKE_MS:
     * close it (and give its conn back, then or later). */
    void (*expire)(void *handle, void *ctx);
    void *ctx;
    /* Several gates on one port, one an event loop (SO_REUSEPORT: the
     * kernel spreads the connections over them), counting the handshakes of
     * each address together in peers (gate_peers_new; NULL: the gate's
     * own). port 0 is any free port for the first; the others take the
     * first's (gate_port). GATE_PORT_FIRST checks first that no socket
     * listens on the port (SO_REUSEPORT would let this server share it
     * with another process of the same user, the kernel spreading the
     * clients over both). */
    int reuse_port; /* GATE_PORT_ALONE, GATE_PORT_FIRST or GATE_PORT_JOIN */
    GatePeers *peers;
} GateConfig;

/* The addresses' handshakes shared by gates (their calls take its lock);
 * NULL out of memory. Freed after the last gate. */
GatePeers *gate_peers_new(void);
void gate_peers_free(GatePeers *peers);

/* Listens (SO_REUSEADDR, the backlog SOMAXCONN) and starts accepting on the
 * loop. NULL when it cannot (a sentence in error, of size error_size). */
Gate *gate_open(const GateConfig *config, char *error, int error_size);

/* The port listened on. */
int gate_port(const Gate *gate);

/* conn's handshake is over (a request came) or its connection is gone:
 * its address may open another. conn is freed. */
void gate_done(Gate *gate, GateConn *conn);

/* A connection was closed: a file handle is free, and if accepting waits
 * for one it tries again at once. */
void gate_freed(Gate *gate);

/* Stops accepting and closes the listening socket: no new connection. The
 * ones taken go on (gate_done and gate_freed still work). */
void gate_stop(Gate *gate);

/* Lets go of the gate once every connection it let in is gone (after
 * gate_stop). NULL is fine. */
void gate_free(Gate *gate);

#endif
