#!/bin/sh
# udhcpc hook of the power-cut run's DHCP clients: report each lease; configure nothing.
case "$1" in
  bound|renew) echo "PCLEASE $1 $ip ${lease:-0}" ;;
esac
exit 0
