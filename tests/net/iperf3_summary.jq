# What an iperf3 script reads of `iperf3 -J`: the end's sums, the
# intervals, the streams and the CPU, one line. A member that is missing
# prints as null. Run by tests/test_net_iperf3_json.c over iperf3's and
# iochar's output alike.
[.end.sum_sent.bytes, .end.sum_received.bytes,
 .end.sum_received.bits_per_second, .end.sum_sent.sender,
 (.intervals | length), ([.intervals[].sum.bytes] | add),
 ([.end.streams[].receiver.bytes] | add), ([.end.streams[].sender.bytes] | add),
 .end.cpu_utilization_percent.host_total, .start.test_start.num_streams,
 (.start.connected | length)]
| map(tostring) | join(" ")
