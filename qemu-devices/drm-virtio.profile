# A virtio GPU: the DRM core's device and file operations (/dev/dri/card0,
# drivers/gpu/drm/drm_drv.c and drm_file.c) under the virtio-gpu driver.
description=virtio-gpu-pci: DRM version, capabilities, dumb buffers, events
qemu=-device virtio-gpu-pci
kconfig=CONFIG_DRM=m
kconfig=CONFIG_DRM_VIRTIO_GPU=m
module=virtio-gpu
tests=gpu/drm-card
timeout=60
