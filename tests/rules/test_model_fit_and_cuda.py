"""Which model sizes fit a memory budget, and the CUDA toolkit a GPU generation needs (catalog facts)."""
from rules import catalog, cuda, model_fit
from rules.roofline import memory


def test_the_largest_sizes_fit_with_room_for_kv_and_shrink_with_memory():
    big = model_fit.largest_fitting(model_fit.room_gb("rtx4090"))
    small = model_fit.largest_fitting(model_fit.room_gb("rtx4060"))
    assert big and small and big[0].params_b > small[0].params_b
    room = model_fit.room_gb("rtx4060")
    for fit in small:
        spec = catalog.model(fit.model)
        weights = memory.weight_bytes(spec, model_fit.QUANT).value / 1e9
        assert weights <= 0.75 * room and weights + fit.kv_gb <= room
    sizes = [round(f.params_b) for f in big]
    assert sizes == sorted(set(sizes), reverse=True)   # one model per size, biggest first


def test_no_memory_known_gives_no_room_and_an_unnamed_mac_keeps_the_macos_share():
    assert model_fit.room_gb(None) is None
    assert model_fit.room_gb(None, stated_gb=24, apple=True) < model_fit.room_gb(None, stated_gb=24)


def test_blackwell_needs_cuda_12_8_and_other_generations_get_no_claim():
    kit = cuda.min_toolkit(catalog.hardware("rtx5090").cuda_cc)
    assert kit is not None and kit.min_cuda == "12.8" and kit.source.startswith("https://docs.nvidia.com/")
    assert cuda.min_toolkit(catalog.hardware("rtx4090").cuda_cc) is None
    assert cuda.min_toolkit(None) is None
