// ---- vadd
// uses: ["Read", "Read", "OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            b: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            __out_c: &::rumba::kernel::wil::OwnOut<'_, f32, __W>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            let c = __out_c.block(__blk);
            if let (
                ::core::option::Option::Some(__win_a),
                ::core::option::Option::Some(__win_b),
                ::core::option::Option::Some(__win_c),
            ) = (a.own_window(__blk), b.own_window(__blk), __out_c.own_window(__blk)) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if true {
                                __win_c.set(__w, (__win_a.at(__w) + __win_b.at(__w)));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < c.len()) {
                                c.set(i, (a.get(i) + b.get(i)));
                            }
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let b = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let __out_c = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &__out_c),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &__out_c),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize, 1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[2usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- matmul_shared
// uses: ["Read", "Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            b: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            c: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            let c = *c;
            let sa = __blk.shared_array::<f32, 2usize>([TPB, TPB]);
            let sb = __blk.shared_array::<f32, 2usize>([TPB, TPB]);
            let __ctx_acc = __blk.context::<f32>();
            let n: usize = c.shape()[0];
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut acc: f32 = __ctx_acc.get(__w as usize);
                        acc = 0f32;
                        __ctx_acc.set(__w as usize, acc);
                    },
                );
            for tile in (0usize)..((((__gdim).x) as usize)) {
                let __trues1: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let tx: usize = (((__tid).x) as usize);
                            let ty: usize = (((__tid).y) as usize);
                            sa.set(
                                (ty, tx),
                                (if ((y < n)
                                    && ((tx)
                                        .wrapping_add(
                                            (tile)
                                                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                                        ) < n))
                                {
                                    a.get((
                                        y,
                                        (tx)
                                            .wrapping_add(
                                                (tile)
                                                    .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                                            ),
                                    ))
                                } else {
                                    0f32
                                }),
                            );
                            sb.set(
                                (ty, tx),
                                (if ((x < n)
                                    && ((ty)
                                        .wrapping_add(
                                            (tile)
                                                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                                        ) < n))
                                {
                                    b.get((
                                        (ty)
                                            .wrapping_add(
                                                (tile)
                                                    .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                                            ),
                                        x,
                                    ))
                                } else {
                                    0f32
                                }),
                            );
                        },
                    );
                let _ = match __blk.barrier(&__BS0, __trues1) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                let __trues3: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tx: usize = (((__tid).x) as usize);
                            let ty: usize = (((__tid).y) as usize);
                            let mut acc: f32 = __ctx_acc.get(__w as usize);
                            for j in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(TPB)) {
                                acc = (acc + (sa.get((ty, j)) * sb.get((j, tx))));
                            }
                            __ctx_acc.set(__w as usize, acc);
                        },
                    );
                let _ = match __blk.barrier(&__BS2, __trues3) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
            }
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let __rumba_tuple: (usize, usize) = (
                            (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                            (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                        );
                        let x: usize = __rumba_tuple.0;
                        let y: usize = __rumba_tuple.1;
                        let mut acc: f32 = __ctx_acc.get(__w as usize);
                        if ((y < n) && (x < n)) {
                            c.set((y, x), acc);
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let b = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let c = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize, 1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- reduce_shared
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            partial: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let partial = *partial;
            let s = __blk.shared_array::<f32, 1usize>([256usize]);
            let __trues1: u32 = 0;
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            s.set(tid, (if true { __win_x.at(__w) } else { 0f32 }));
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            s.set(tid, (if (i < x.len()) { x.get(i) } else { 0f32 }));
                        },
                    );
            }
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let mut stride: usize = 128usize;
            while (stride > 0usize) {
                let __trues3: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            if (tid < stride) {
                                {
                                    let __rumba_i = tid;
                                    let __rumba_v: f32 = s.get((tid).wrapping_add(stride));
                                    s.set(__rumba_i, (s.get(__rumba_i) + __rumba_v));
                                }
                            }
                        },
                    );
                let _ = match __blk.barrier(&__BS2, __trues3) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                stride = (stride / 2usize);
            }
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (tid == 0usize) {
                            partial.set((((__bidx).x) as usize), s.get(0usize));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let partial = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- reduce_warp
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            partial: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            const __WS0: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::ShflDown,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS1: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let partial = *partial;
            let s = __blk.shared_array::<f32, 1usize>([32usize]);
            let __ctx_v = __blk.context::<f32>();
            let __ctx___rumba_wv6 = __blk.context::<f32>();
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let mut v: f32 = __ctx_v.get(__w as usize);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            v = (if true { __win_x.at(__w) } else { 0f32 });
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let mut v: f32 = __ctx_v.get(__w as usize);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            v = (if (i < x.len()) { x.get(i) } else { 0f32 });
                            __ctx_v.set(__w as usize, v);
                        },
                    );
            }
            let mut d: u32 = 16u32;
            while (d > 0u32) {
                __blk
                    .warp_shfl_uniform::<
                        f32,
                    >(&__WS0, 4294967295u32, __ctx_v, d, __ctx___rumba_wv6);
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let mut v: f32 = __ctx_v.get(__w as usize);
                            let mut __rumba_wv6: f32 = __ctx___rumba_wv6
                                .get(__w as usize);
                            v = (v + __rumba_wv6);
                            __ctx_v.set(__w as usize, v);
                        },
                    );
                d = (d).wrapping_shr((1i32) as u32);
            }
            let __trues2: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let mut v: f32 = __ctx_v.get(__w as usize);
                        if ((__w % 32u32) == 0u32) {
                            s.set((tid / 32usize), v);
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS1, __trues2) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (tid == 0usize) {
                            let mut sum: f32 = 0f32;
                            for w in (0usize)..(((((__bdim).x) as usize) / 32usize)) {
                                sum = (sum + s.get(w));
                            }
                            partial.set((((__bidx).x) as usize), sum);
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let partial = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &partial),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- empty
// uses: []
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(__blk: &::rumba::kernel::wil::BlockCtx<'_, __S>) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
