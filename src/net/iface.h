/* iface.h - the local network interface a connection leaves by: name,
 * driver, MTU, queue counts and speed, read by the inventory's NIC
 * reader (inventory_read_net) and, for the driver of a virtual interface,
 * the ethtool ioctl.
 */
#ifndef IOCHAR_NET_IFACE_H
#define IOCHAR_NET_IFACE_H

struct net_iface {
	char name[32];     /* "" when not found */
	char driver[32];   /* "veth", "virtio_net", "mlx5_core"; "" for lo */
	unsigned mtu;
	unsigned rx_queues, tx_queues;
	int speed_mbps;    /* -1 when the link does not say */
};

/* Fill ifc for the interface holding fd's local address. Never fails:
 * what cannot be read stays empty. */
void net_iface_of_socket(int fd, struct net_iface *ifc);

/* ifc as the member key of the object w is in. */
struct jw;
void net_iface_json(struct jw *w, const char *key, const struct net_iface *ifc);

#endif
