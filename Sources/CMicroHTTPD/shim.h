// CMicroHTTPD: GNU libmicrohttpd for Swift (the operator's console's HTTP), plus what Swift cannot
// import from it: its variadic calls, wrapped with the arguments the console passes.
#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic: the console's daemon on a socket it bound and listens on itself
// (TCP or Unix), a thread per connection behind one polling thread, at most 256 connections,
// each dropped after 30 s idle. The daemon closes `listen_fd` when it stops.
static inline struct MHD_Daemon *kiosk_mhd_start(int listen_fd, MHD_AccessHandlerCallback handler,
                                                 MHD_RequestCompletedCallback completed, void *context) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ERROR_LOG,
                            0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)256,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
                            MHD_OPTION_END);
}

// MHD_get_connection_info is variadic: the peer's address as text (IPv4 or IPv6) into `text`;
// 0 when written, 1 for a peer with no IP address (a Unix socket's), -1 when MHD has none.
static inline int kiosk_mhd_client_address(struct MHD_Connection *connection, char *text, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET)
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, size) ? 0 : -1;
    if (address->sa_family == AF_INET6)
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, size) ? 0 : -1;
    return 1;
}

// MHD_Result, MHD_ValueKind and MHD_ResponseMemoryMode are closed enums whose imported case names
// Swift makes up: the values the console uses, named here once.
static const enum MHD_Result kiosk_mhd_yes = MHD_YES;
static const enum MHD_Result kiosk_mhd_no = MHD_NO;

// A request header's value (NULL when it has none).
static inline const char *kiosk_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

// A response holding a copy of `size` bytes at `data`.
static inline struct MHD_Response *kiosk_mhd_response_copy(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}
