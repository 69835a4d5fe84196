#include <pcap/pcap.h>
#include <poll.h>
