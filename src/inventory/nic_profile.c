/* nic_profile.c - see nic_profile.h. The ETHTOOL ioctls (the same
 * answers `ethtool -g/-l/-x/-k/-c` print), one socket for all of them. */
#include <dirent.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "inventory/nic_profile.h"

/* One ETHTOOL command on ifname: 0 or -errno. */
static int ethtool(int s, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(s, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

static void read_rings(int s, const char *ifname, struct nic_profile *p)
{
	struct ethtool_ringparam r = {.cmd = ETHTOOL_GRINGPARAM};

	if (ethtool(s, ifname, &r))
		return;
	p->rings_known = true;
	p->rx_ring = r.rx_pending;
	p->tx_ring = r.tx_pending;
	p->rx_ring_max = r.rx_max_pending;
	p->tx_ring_max = r.tx_max_pending;
}

static void read_channels(int s, const char *ifname, struct nic_profile *p)
{
	struct ethtool_channels c = {.cmd = ETHTOOL_GCHANNELS};

	if (ethtool(s, ifname, &c))
		return;
	p->channels_known = true;
	p->rx_ch = c.rx_count;
	p->tx_ch = c.tx_count;
	p->other_ch = c.other_count;
	p->combined_ch = c.combined_count;
	p->max_rx_ch = c.max_rx;
	p->max_tx_ch = c.max_tx;
	p->max_other_ch = c.max_other;
	p->max_combined_ch = c.max_combined;
}

static void read_coalesce(int s, const char *ifname, struct nic_profile *p)
{
	struct ethtool_coalesce c = {.cmd = ETHTOOL_GCOALESCE};

	if (ethtool(s, ifname, &c))
		return;
	p->coalesce_known = true;
	p->rx_usecs = c.rx_coalesce_usecs;
	p->rx_frames = c.rx_max_coalesced_frames;
	p->tx_usecs = c.tx_coalesce_usecs;
	p->tx_frames = c.tx_max_coalesced_frames;
	p->adaptive_rx = c.use_adaptive_rx_coalesce;
	p->adaptive_tx = c.use_adaptive_tx_coalesce;
}

/* The names of string set ss (count of them in *n), one buffer of
 * ETH_GSTRING_LEN each; NULL when the driver has none. */
static struct ethtool_gstrings *strings(int s, const char *ifname, uint32_t ss, uint32_t *n)
{
	/* the header and its one data word (one set asked), without a
	 * struct that ends in the kernel's flexible array mid-way */
	union {
		struct ethtool_sset_info hdr;
		char bytes[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} info = {.hdr = {.cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ull << ss}};
	struct ethtool_gstrings *g;
	uint32_t len;

	*n = 0;
	if (ethtool(s, ifname, &info))
		return NULL;
	memcpy(&len, info.bytes + sizeof(struct ethtool_sset_info), sizeof(len));
	if (!info.hdr.sset_mask || !len)
		return NULL;
	g = calloc(1, sizeof(*g) + (size_t)len * ETH_GSTRING_LEN);
	if (!g)
		return NULL;
	g->cmd = ETHTOOL_GSTRINGS;
	g->string_set = ss;
	g->len = len;
	if (ethtool(s, ifname, g)) {
		free(g);
		return NULL;
	}
	*n = len;
	return g;
}

static const char *string_at(const struct ethtool_gstrings *g, uint32_t i)
{
	return (const char *)g->data + (size_t)i * ETH_GSTRING_LEN;
}

/* Every feature that is active, and the four the papers name: TSO
 * (tx-tcp-segmentation), GSO, GRO and LRO. */
static void read_features(int s, const char *ifname, struct nic_profile *p)
{
	uint32_t n;
	struct ethtool_gstrings *names = strings(s, ifname, ETH_SS_FEATURES, &n);
	uint32_t blocks = (n + 31) / 32;
	struct ethtool_gfeatures *f;

	p->tso = p->gso = p->gro = p->lro = -1;
	if (!names)
		return;
	f = calloc(1, sizeof(*f) + blocks * sizeof(f->features[0]));
	if (!f || (f->cmd = ETHTOOL_GFEATURES, f->size = blocks, ethtool(s, ifname, f))) {
		free(f);
		free(names);
		return;
	}
	p->features_known = true;
	p->tso = p->gso = p->gro = p->lro = 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *nm = string_at(names, i);
		if (!(f->features[i / 32].active & (1u << (i % 32))))
			continue;
		p->tso |= !strcmp(nm, "tx-tcp-segmentation");
		p->gso |= !strcmp(nm, "tx-generic-segmentation");
		p->gro |= !strcmp(nm, "rx-gro");
		p->lro |= !strcmp(nm, "rx-lro");
		if (p->nr_features_on < NIC_FEATURES_MAX)
			snprintf(p->features_on[p->nr_features_on++], NIC_FEATURE_NAME, "%.*s",
				 ETH_GSTRING_LEN, nm);
	}
	free(f);
	free(names);
}

/* The indirection table (how many entries, how many queues it spreads
 * to), the key's size and the hash function in use. */
static void read_rss(int s, const char *ifname, struct nic_profile *p)
{
	struct ethtool_rxfh head = {.cmd = ETHTOOL_GRSSH};
	struct ethtool_rxfh *full;
	uint32_t n;

	if (ethtool(s, ifname, &head))
		return;
	struct ethtool_gstrings *funcs = strings(s, ifname, ETH_SS_RSS_HASH_FUNCS, &n);
	for (uint32_t i = 0; funcs && i < n && i < 32; i++)
		if (head.hfunc & (1u << i))
			snprintf(p->rss_hfunc, sizeof(p->rss_hfunc), "%.*s", ETH_GSTRING_LEN,
				 string_at(funcs, i));
	free(funcs);
	p->rss_key_bytes = head.key_size;
	if (!head.indir_size)
		return;
	full = calloc(1, sizeof(*full) + head.indir_size * sizeof(uint32_t) + head.key_size);
	if (!full)
		return;
	*full = (struct ethtool_rxfh){.cmd = ETHTOOL_GRSSH, .indir_size = head.indir_size,
				      .key_size = head.key_size};
	if (ethtool(s, ifname, full) == 0) {
		bool seen[NIC_RSS_QUEUES_MAX] = {0};
		p->rss_known = true;
		p->rss_table_size = full->indir_size;
		for (uint32_t i = 0; i < full->indir_size; i++) {
			uint32_t q = full->rss_config[i];
			if (q < NIC_RSS_QUEUES_MAX && !seen[q]) {
				seen[q] = true;
				p->rss_queues++;
			}
		}
	}
	free(full);
}

static void read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/* The action name /proc/interrupts gives irq. */
static void irq_name(unsigned irq, char *out, size_t len)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long n = strtoul(line, &end, 10);
		if (end == line || *end != ':' || n != irq)
			continue;
		line[strcspn(line, "\n")] = '\0';
		char *last = strrchr(line, ' ');
		snprintf(out, len, "%s", last ? last + 1 : "");
		break;
	}
	fclose(f);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* The IRQ numbers in dir (an msi_irqs directory), sorted; how many. */
static unsigned list_irqs(const char *dir, unsigned *irqs)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while (n < NIC_IRQS_MAX && (e = readdir(d))) {
		char *end;
		unsigned long v = strtoul(e->d_name, &end, 10);
		if (end != e->d_name && !*end)
			irqs[n++] = (unsigned)v;
	}
	closedir(d);
	qsort(irqs, n, sizeof(*irqs), cmp_uint);
	return n;
}

/* The device's MSI interrupts (its own msi_irqs, or its PCI parent's for
 * a virtio interface) and where each may and does run. */
static void read_irqs(const char *ifname, struct nic_profile *p)
{
	static const char *const dirs[] = {"device/msi_irqs", "device/../msi_irqs"};
	unsigned irqs[NIC_IRQS_MAX], n = 0;
	char path[256];

	for (unsigned d = 0; d < 2 && !n; d++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, dirs[d]);
		n = list_irqs(path, irqs);
	}
	for (unsigned i = 0; i < n; i++) {
		struct nic_irq *q = &p->irqs[p->nr_irqs++];
		q->irq = irqs[i];
		irq_name(q->irq, q->name, sizeof(q->name));
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", q->irq);
		read_line(path, q->cpus, sizeof(q->cpus));
		snprintf(path, sizeof(path), "/proc/irq/%u/effective_affinity_list", q->irq);
		read_line(path, q->effective, sizeof(q->effective));
	}
}

void nic_profile_read(const char *ifname, struct nic_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->tso = p->gso = p->gro = p->lro = -1;
	if (!ifname || !ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s >= 0) {
		read_rings(s, ifname, p);
		read_channels(s, ifname, p);
		read_coalesce(s, ifname, p);
		read_features(s, ifname, p);
		read_rss(s, ifname, p);
		close(s);
	}
	read_irqs(ifname, p);
}

static void kv_known_uint(struct jw *w, const char *key, bool known, uint64_t v)
{
	jw_key(w, key);
	if (known)
		jw_uint(w, v);
	else
		jw_null(w);
}

static void kv_tristate(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	if (v < 0)
		jw_null(w);
	else
		jw_bool(w, v);
}

void nic_profile_json(struct jw *w, const struct nic_profile *p)
{
	jw_object_begin(w);
	jw_key(w, "rings");
	jw_object_begin(w);
	kv_known_uint(w, "rx", p->rings_known, p->rx_ring);
	kv_known_uint(w, "tx", p->rings_known, p->tx_ring);
	kv_known_uint(w, "rx_max", p->rings_known, p->rx_ring_max);
	kv_known_uint(w, "tx_max", p->rings_known, p->tx_ring_max);
	jw_object_end(w);
	jw_key(w, "channels");
	jw_object_begin(w);
	kv_known_uint(w, "rx", p->channels_known, p->rx_ch);
	kv_known_uint(w, "tx", p->channels_known, p->tx_ch);
	kv_known_uint(w, "other", p->channels_known, p->other_ch);
	kv_known_uint(w, "combined", p->channels_known, p->combined_ch);
	kv_known_uint(w, "max_combined", p->channels_known, p->max_combined_ch);
	jw_object_end(w);
	jw_key(w, "rss");
	jw_object_begin(w);
	kv_known_uint(w, "table_size", p->rss_known, p->rss_table_size);
	kv_known_uint(w, "queues_used", p->rss_known, p->rss_queues);
	kv_known_uint(w, "key_bytes", p->rss_key_bytes > 0, p->rss_key_bytes);
	jw_kv_string(w, "hash_function", p->rss_hfunc);
	jw_object_end(w);
	jw_key(w, "offloads");
	jw_object_begin(w);
	kv_tristate(w, "tso", p->tso);
	kv_tristate(w, "gso", p->gso);
	kv_tristate(w, "gro", p->gro);
	kv_tristate(w, "lro", p->lro);
	jw_key(w, "features_on");
	if (p->features_known) {
		jw_array_begin(w);
		for (unsigned i = 0; i < p->nr_features_on; i++)
			jw_string(w, p->features_on[i]);
		jw_array_end(w);
	} else {
		jw_null(w);
	}
	jw_object_end(w);
	jw_key(w, "coalesce");
	jw_object_begin(w);
	kv_known_uint(w, "rx_usecs", p->coalesce_known, p->rx_usecs);
	kv_known_uint(w, "rx_frames", p->coalesce_known, p->rx_frames);
	kv_known_uint(w, "tx_usecs", p->coalesce_known, p->tx_usecs);
	kv_known_uint(w, "tx_frames", p->coalesce_known, p->tx_frames);
	kv_tristate(w, "adaptive_rx", p->coalesce_known ? p->adaptive_rx : -1);
	kv_tristate(w, "adaptive_tx", p->coalesce_known ? p->adaptive_tx : -1);
	jw_object_end(w);
	jw_key(w, "irqs");
	jw_array_begin(w);
	for (unsigned i = 0; i < p->nr_irqs; i++) {
		jw_object_begin(w);
		jw_kv_uint(w, "irq", p->irqs[i].irq);
		jw_kv_string(w, "name", p->irqs[i].name);
		jw_kv_string(w, "cpus", p->irqs[i].cpus);
		jw_kv_string(w, "effective_cpus", p->irqs[i].effective);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static const char *onoff(int v)
{
	return v < 0 ? "-" : v ? "on" : "off";
}

void nic_profile_text(FILE *f, const char *indent, const struct nic_profile *p)
{
	if (!p->rings_known && !p->channels_known && !p->coalesce_known && !p->rss_known &&
	    !p->features_known && !p->nr_irqs)
		return;
	fprintf(f, "%s", indent);
	if (p->rings_known)
		fprintf(f, "rings rx %u/%u tx %u/%u, ", p->rx_ring, p->rx_ring_max, p->tx_ring,
			p->tx_ring_max);
	if (p->channels_known)
		fprintf(f, "channels combined %u rx %u tx %u, ", p->combined_ch, p->rx_ch,
			p->tx_ch);
	if (p->rss_known)
		fprintf(f, "RSS %u entries over %u queue(s) %s, ", p->rss_table_size,
			p->rss_queues, p->rss_hfunc);
	else if (p->rss_hfunc[0])
		fprintf(f, "RSS hash %s, ", p->rss_hfunc);
	fprintf(f, "TSO %s GSO %s GRO %s LRO %s", onoff(p->tso), onoff(p->gso), onoff(p->gro),
		onoff(p->lro));
	if (p->coalesce_known)
		fprintf(f, ", coalesce rx %u us/%u frames%s tx %u us/%u frames%s", p->rx_usecs,
			p->rx_frames, p->adaptive_rx ? " adaptive" : "", p->tx_usecs, p->tx_frames,
			p->adaptive_tx ? " adaptive" : "");
	fputc('\n', f);
	if (!p->nr_irqs)
		return;
	fprintf(f, "%sirqs:", indent);
	for (unsigned i = 0; i < p->nr_irqs; i++)
		fprintf(f, " %u %s -> CPU %s%s", p->irqs[i].irq, p->irqs[i].name,
			p->irqs[i].effective[0] ? p->irqs[i].effective : p->irqs[i].cpus,
			i + 1 < p->nr_irqs ? ";" : "");
	fputc('\n', f);
}
