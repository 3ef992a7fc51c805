# More software character devices the llseek series touches, no hardware:
# each module below makes its node (or /proc file) at load, and
# misc/software-nodes drives each one's own file operations beyond open.
# misc/coda-venus then mounts coda with the test as Venus on /dev/cfs0
# and drives the control file's pioctls (fs/coda/pioctl.c).
description=vhci, aoe, pktcdvd, mISDN timer, CAPI, cachefiles, coda (and a mount with the test as Venus), dlm, ecryptfs, stm, megaraid_mm, kfifo samples, mcelog, serio_raw
kconfig=CONFIG_BT=m
kconfig=CONFIG_BT_BREDR=y
kconfig=CONFIG_BT_HCIVHCI=m
kconfig=CONFIG_NETDEVICES=y
kconfig=CONFIG_ISDN=y
kconfig=CONFIG_MISDN=m
kconfig=CONFIG_BT_CMTP=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_ATA_OVER_ETH=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_CDROM_PKTCDVD=m
kconfig=CONFIG_FSCACHE=m
kconfig=CONFIG_CACHEFILES=m
kconfig=CONFIG_CODA_FS=m
kconfig=CONFIG_CONFIGFS_FS=m
kconfig=CONFIG_DLM=m
kconfig=CONFIG_KEYS=y
kconfig=CONFIG_CRYPTO=y
kconfig=CONFIG_ECRYPT_FS=m
kconfig=CONFIG_ECRYPT_FS_MESSAGING=y
kconfig=CONFIG_STM=m
kconfig=CONFIG_STM_DUMMY=m
kconfig=CONFIG_SCSI_LOWLEVEL=y
kconfig=CONFIG_MEGARAID_NEWGEN=y
kconfig=CONFIG_MEGARAID_MM=m
kconfig=CONFIG_SAMPLES=y
kconfig=CONFIG_SAMPLE_KFIFO=m
kconfig=CONFIG_X86_MCE=y
kconfig=CONFIG_X86_MCELOG_LEGACY=y
kconfig=CONFIG_SERIO=m
kconfig=CONFIG_SERIO_RAW=m
kconfig=CONFIG_USERIO=m
# Bluetooth loads ecdh_generic, whose key generation takes the default RNG
# "stdrng" (drbg, with the hmac(sha256) and hmac(sha512) it instantiates):
# only request_module() asks for those, so nothing puts them in the
# initramfs unless named here. cryptomgr: in a kernel with
# CONFIG_CRYPTO_MANAGER=m every algorithm registered waits for it
# (crypto_wait_for_test warns without it, crypto/api.c:170); the lab
# kernels build it in and, since the fifteenth session, run no crypto
# self-tests (kconfig/base.config), so that line only names it.
module=cryptomgr
module=sha256_generic
module=sha512_generic
module=hmac
module=drbg
module=hci_vhci
module=aoe
module=pktcdvd
module=mISDN_core
module=cmtp
module=cachefiles
module=coda
module=dlm
module=ecryptfs
module=stm_core
module=dummy_stm
module=megaraid_mm
module=bytestream-example
module=inttype-example
module=record-example
module=userio
module=serio_raw
tests=misc/software-nodes misc/coda-venus
timeout=60
