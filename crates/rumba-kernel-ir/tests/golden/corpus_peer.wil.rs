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
            __out_c: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 1usize>,
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
                1usize,
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
            a: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            b: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            __out_c: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 2usize>,
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
            let c = __out_c.block(__blk);
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
            if let (::core::option::Option::Some(__win_c),) = (
                __out_c.own_window(__blk),
            ) {
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
                            if (true && (x < n)) {
                                __win_c.set(__tid, acc);
                            }
                        },
                    );
            } else {
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
            let __out_c = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                2usize,
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
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &__out_c),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
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
                    .each_x(
                        0i128,
                        ((stride) as i128),
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
                .each_x(
                    ((0usize) as i128),
                    ((0usize) as i128) + 1,
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
                .each_lane(
                    ((0u32) as i128),
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
                .each_x(
                    ((0usize) as i128),
                    ((0usize) as i128) + 1,
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
// ---- transpose
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
            a: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            b: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
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
            let tile = __blk.shared_array::<f32, 2usize>([TILE, TILE_PAD]);
            if let ::core::option::Option::Some(__next) = __blk.next_block_idx() {
                let __bidx = __next;
                let bx: usize = ((((__bidx).x) as usize))
                    .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
                let by: usize = ((((__bidx).y) as usize))
                    .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
                __blk
                    .each_x(
                        0,
                        1,
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tx: usize = (((__tid).x) as usize);
                            let ty: usize = (((__tid).y) as usize);
                            a.prefetch_run(
                                ((by).wrapping_add(ty), (bx).wrapping_add(tx)),
                                __bdim.x as usize,
                            );
                        },
                    );
            }
            let bx: usize = ((((__bidx).x) as usize))
                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
            let by: usize = ((((__bidx).y) as usize))
                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
            let rows: usize = a.shape()[0];
            let cols: usize = a.shape()[1];
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tx: usize = (((__tid).x) as usize);
                        let ty: usize = (((__tid).y) as usize);
                        if (((by).wrapping_add(ty) < rows)
                            && ((bx).wrapping_add(tx) < cols))
                        {
                            tile.set(
                                (ty, tx),
                                a.get(((by).wrapping_add(ty), (bx).wrapping_add(tx))),
                            );
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tx: usize = (((__tid).x) as usize);
                        let ty: usize = (((__tid).y) as usize);
                        if (((bx).wrapping_add(ty) < cols)
                            && ((by).wrapping_add(tx) < rows))
                        {
                            b.set(
                                ((bx).wrapping_add(ty), (by).wrapping_add(tx)),
                                tile.get((tx, ty)),
                            );
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
            let b = <::rumba::kernel::Arr<
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
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
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
// ---- stencil5
// uses: ["Read", "OwnIndexStore"]
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
            u: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            __out_v: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 2usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let u = *u;
            let v = __out_v.block(__blk);
            if let (
                ::core::option::Option::Some(__win_u),
                ::core::option::Option::Some(__win_v),
            ) = (u.halo_window::<1usize, _>(__blk), __out_v.own_window(__blk)) {
                __blk
                    .each_split(
                        __win_u.interior(),
                        #[inline(always)]
                        |__w: u32, __in: ::rumba::kernel::wil::Inside| {
                            let __tid: ::rumba::kernel::Dim3 = __in.tid();
                            let __h_u_m1_p0 = __win_u.at::<{ -1isize }, 0isize>(__in);
                            let __h_u_p0_m1 = __win_u.at::<0isize, { -1isize }>(__in);
                            let __h_u_p0_p0 = __win_u.at::<0isize, 0isize>(__in);
                            let __h_u_p0_p1 = __win_u.at::<0isize, 1isize>(__in);
                            let __h_u_p1_p0 = __win_u.at::<1isize, 0isize>(__in);
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let rows: usize = u.shape()[0];
                            let cols: usize = u.shape()[1];
                            if (true && true) {
                                if (((false || false) || false) || false) {
                                    __win_v.set_inside(__in, __h_u_p0_p0);
                                } else {
                                    let s: f32 = ((((__h_u_p0_p0 + __h_u_m1_p0) + __h_u_p1_p0)
                                        + __h_u_p0_m1) + __h_u_p0_p1);
                                    __win_v.set_inside(__in, (0.2f32 * s));
                                }
                            }
                        },
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let rows: usize = u.shape()[0];
                            let cols: usize = u.shape()[1];
                            if ((y < rows) && (x < cols)) {
                                if ((((y == 0usize) || (x == 0usize))
                                    || ((y).wrapping_add(1usize) == rows))
                                    || ((x).wrapping_add(1usize) == cols))
                                {
                                    v.set((y, x), u.get((y, x)));
                                } else {
                                    let s: f32 = ((((u.get((y, x))
                                        + u.get(((y).wrapping_sub(1usize), x)))
                                        + u.get(((y).wrapping_add(1usize), x)))
                                        + u.get((y, (x).wrapping_sub(1usize))))
                                        + u.get((y, (x).wrapping_add(1usize))));
                                    v.set((y, x), (0.2f32 * s));
                                }
                            }
                        },
                    );
            } else {
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
                            let rows: usize = u.shape()[0];
                            let cols: usize = u.shape()[1];
                            if ((y < rows) && (x < cols)) {
                                if ((((y == 0usize) || (x == 0usize))
                                    || ((y).wrapping_add(1usize) == rows))
                                    || ((x).wrapping_add(1usize) == cols))
                                {
                                    v.set((y, x), u.get((y, x)));
                                } else {
                                    let s: f32 = ((((u.get((y, x))
                                        + u.get(((y).wrapping_sub(1usize), x)))
                                        + u.get(((y).wrapping_add(1usize), x)))
                                        + u.get((y, (x).wrapping_sub(1usize))))
                                        + u.get((y, (x).wrapping_add(1usize))));
                                    v.set((y, x), (0.2f32 * s));
                                }
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
            let u = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let __out_v = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                2usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &u, &__out_v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &u, &__out_v),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
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
// ---- histogram
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
            data: &::rumba::kernel::wil::GlobalIn<'_, u8, 1usize, __R>,
            bins: &::rumba::kernel::GlobalView<'_, u32>,
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
            let data = *data;
            let bins = *bins;
            let h = __blk.shared_array::<u32, 1usize>([BINS]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        h.set(tid, 0u32);
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
                        let tid: usize = (((__tid).x) as usize);
                        let start: usize = ((((__bidx).x) as usize))
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK),
                            );
                        let end: usize = (if ((start)
                            .wrapping_add(
                                ::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK),
                            ) < data.len())
                        {
                            (start)
                                .wrapping_add(
                                    ::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK),
                                )
                        } else {
                            data.len()
                        });
                        let mut i: usize = (start).wrapping_add(tid);
                        while (i < end) {
                            h.atomic_add(((data.get(i)) as usize), 1u32);
                            i = (i)
                                .wrapping_add(::rumba::kernel::__macro::ty::<usize>(BINS));
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS2, __trues3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (h.get(tid) != 0u32) {
                            bins.atomic_add(tid, h.get(tid));
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
            let data = ::rumba::kernel::wil::GlobalIn::<
                u8,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let bins = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &data, &bins),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &data, &bins),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &data, &bins),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &data, &bins),
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
// ---- scan_blocks
// uses: ["Read", "ReadWrite", "ReadWrite"]
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
            x: &::rumba::kernel::wil::GlobalIn<'_, u32, 1usize, __R>,
            y: &::rumba::kernel::GlobalView<'_, u32>,
            sums: &::rumba::kernel::GlobalView<'_, u32>,
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
            const __BS4: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let y = *y;
            let sums = *sums;
            let s = __blk.shared_array::<u32, 1usize>([SCAN_THREADS]);
            let __ctx_total = __blk.context::<u32>();
            let __ctx_left = __blk.context::<u32>();
            let n: usize = x.len();
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let base: usize = (((((__bidx).x) as usize))
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(SCAN_TILE),
                            ))
                            .wrapping_add(
                                (tid)
                                    .wrapping_mul(
                                        ::rumba::kernel::__macro::ty::<usize>(SCAN_PER_THREAD),
                                    ),
                            );
                        let mut total: u32 = __ctx_total.get(__w as usize);
                        total = 0u32;
                        for k in (0usize)..(::rumba::kernel::__macro::ty::<
                            usize,
                        >(SCAN_PER_THREAD)) {
                            if ((base).wrapping_add(k) < n) {
                                total = (total).wrapping_add(x.get((base).wrapping_add(k)));
                            }
                        }
                        s.set(tid, total);
                        __ctx_total.set(__w as usize, total);
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let mut d: usize = 1usize;
            while (d < ::rumba::kernel::__macro::ty::<usize>(SCAN_THREADS)) {
                let __trues3: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let mut left: u32 = __ctx_left.get(__w as usize);
                            left = (if (tid >= d) {
                                s.get((tid).wrapping_sub(d))
                            } else {
                                0u32
                            });
                            __ctx_left.set(__w as usize, left);
                        },
                    );
                let _ = match __blk.barrier(&__BS2, __trues3) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                let __trues5: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let mut left: u32 = __ctx_left.get(__w as usize);
                            {
                                let __rumba_i = tid;
                                let __rumba_v: u32 = left;
                                s.set(
                                    __rumba_i,
                                    (s.get(__rumba_i)).wrapping_add(__rumba_v),
                                );
                            }
                        },
                    );
                let _ = match __blk.barrier(&__BS4, __trues5) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                d = (d).wrapping_mul(2usize);
            }
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let base: usize = (((((__bidx).x) as usize))
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(SCAN_TILE),
                            ))
                            .wrapping_add(
                                (tid)
                                    .wrapping_mul(
                                        ::rumba::kernel::__macro::ty::<usize>(SCAN_PER_THREAD),
                                    ),
                            );
                        let mut total: u32 = __ctx_total.get(__w as usize);
                        let mut run: u32 = (s.get(tid)).wrapping_sub(total);
                        for k_2 in (0usize)..(::rumba::kernel::__macro::ty::<
                            usize,
                        >(SCAN_PER_THREAD)) {
                            if ((base).wrapping_add(k_2) < n) {
                                let v: u32 = x.get((base).wrapping_add(k_2));
                                y.set((base).wrapping_add(k_2), run);
                                run = (run).wrapping_add(v);
                            }
                        }
                        if (tid
                            == (::rumba::kernel::__macro::ty::<usize>(SCAN_THREADS))
                                .wrapping_sub(1usize))
                        {
                            sums.set((((__bidx).x) as usize), s.get(tid));
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
                u32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let y = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let sums = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y, &sums),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y, &sums),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y, &sums),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y, &sums),
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
// ---- scan_add
// uses: ["OwnIndexStore", "Read"]
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
            __out_y: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
            offsets: &::rumba::kernel::wil::GlobalIn<'_, u32, 1usize, __R>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let y = __out_y.block(__blk);
            let offsets = *offsets;
            if let (::core::option::Option::Some(__win_y),) = (
                __out_y.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if true {
                                {
                                    let __rumba_v: u32 = offsets
                                        .get(
                                            (i / ::rumba::kernel::__macro::ty::<usize>(SCAN_TILE)),
                                        );
                                    __win_y.set(__w, (__win_y.at(__w)).wrapping_add(__rumba_v));
                                }
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
                            if (i < y.len()) {
                                {
                                    let __rumba_i = i;
                                    let __rumba_v: u32 = offsets
                                        .get(
                                            (i / ::rumba::kernel::__macro::ty::<usize>(SCAN_TILE)),
                                        );
                                    y.set(
                                        __rumba_i,
                                        (y.get(__rumba_i)).wrapping_add(__rumba_v),
                                    );
                                }
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
            let __out_y = ::rumba::kernel::wil::OwnOut::<
                u32,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            let offsets = ::rumba::kernel::wil::GlobalIn::<
                u32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_y, &offsets),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
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
// ---- nbody
// uses: ["Read", "Read", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            pos: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            vel: &::rumba::kernel::wil::GlobalIn<'_, f32, 2usize, __R>,
            pos_out: &::rumba::kernel::GlobalView<'_, f32>,
            vel_out: &::rumba::kernel::GlobalView<'_, f32>,
            dt: f32,
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
            let pos = *pos;
            let vel = *vel;
            let pos_out = *pos_out;
            let vel_out = *vel_out;
            let sp = __blk.shared_array::<f32, 2usize>([NBODY_TILE, 4usize]);
            let __ctx_px = __blk.context::<f32>();
            let __ctx_py = __blk.context::<f32>();
            let __ctx_pz = __blk.context::<f32>();
            let __ctx_ax = __blk.context::<f32>();
            let __ctx_ay = __blk.context::<f32>();
            let __ctx_az = __blk.context::<f32>();
            let n: usize = pos.shape()[0];
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut px: f32 = __ctx_px.get(__w as usize);
                        let mut py: f32 = __ctx_py.get(__w as usize);
                        let mut pz: f32 = __ctx_pz.get(__w as usize);
                        let mut ax: f32 = __ctx_ax.get(__w as usize);
                        let mut ay: f32 = __ctx_ay.get(__w as usize);
                        let mut az: f32 = __ctx_az.get(__w as usize);
                        px = 0f32;
                        py = 0f32;
                        pz = 0f32;
                        if (i < n) {
                            px = pos.get((i, 0usize));
                            py = pos.get((i, 1usize));
                            pz = pos.get((i, 2usize));
                        }
                        ax = 0f32;
                        ay = 0f32;
                        az = 0f32;
                        __ctx_px.set(__w as usize, px);
                        __ctx_py.set(__w as usize, py);
                        __ctx_pz.set(__w as usize, pz);
                        __ctx_ax.set(__w as usize, ax);
                        __ctx_ay.set(__w as usize, ay);
                        __ctx_az.set(__w as usize, az);
                    },
                );
            for tile in (0usize)..((((__gdim).x) as usize)) {
                let __trues1: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let j: usize = ((tile)
                                .wrapping_mul(
                                    ::rumba::kernel::__macro::ty::<usize>(NBODY_TILE),
                                ))
                                .wrapping_add(tid);
                            for c in (0usize)..(4usize) {
                                sp.set(
                                    (tid, c),
                                    (if (j < n) { pos.get((j, c)) } else { 0f32 }),
                                );
                            }
                        },
                    );
                let _ = match __blk.barrier(&__BS0, __trues1) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                let __trues3: u32 = 0;
                __blk
                    .each_lanes::<
                        16,
                        _,
                        _,
                    >(
                        #[inline(always)]
                        |__w0: u32, __n: usize| {
                            let __n = __n.min(16);
                            let mut __lanes_px: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            let mut __lanes_py: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            let mut __lanes_pz: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            let mut __lanes_ax: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            let mut __lanes_ay: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            let mut __lanes_az: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                            for __l in 0..__n {
                                __lanes_px[__l] = __ctx_px.get(__w0 as usize + __l);
                                __lanes_py[__l] = __ctx_py.get(__w0 as usize + __l);
                                __lanes_pz[__l] = __ctx_pz.get(__w0 as usize + __l);
                                __lanes_ax[__l] = __ctx_ax.get(__w0 as usize + __l);
                                __lanes_ay[__l] = __ctx_ay.get(__w0 as usize + __l);
                                __lanes_az[__l] = __ctx_az.get(__w0 as usize + __l);
                            }
                            for k in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(NBODY_TILE)) {
                                let __read4: f32 = sp.get((k, 0usize));
                                let __read5: f32 = sp.get((k, 1usize));
                                let __read6: f32 = sp.get((k, 2usize));
                                let __read7: f32 = sp.get((k, 3usize));
                                for __l in 0..__n {
                                    let mut px: f32 = __lanes_px[__l];
                                    let mut py: f32 = __lanes_py[__l];
                                    let mut pz: f32 = __lanes_pz[__l];
                                    let mut ax: f32 = __lanes_ax[__l];
                                    let mut ay: f32 = __lanes_ay[__l];
                                    let mut az: f32 = __lanes_az[__l];
                                    let dx: f32 = (__read4 - px);
                                    let dy: f32 = (__read5 - py);
                                    let dz: f32 = (__read6 - pz);
                                    let d2: f32 = ((((dx * dx) + (dy * dy)) + (dz * dz))
                                        + ::rumba::kernel::__macro::ty::<f32>(SOFTENING2));
                                    let inv: f32 = (1f32 / <f32>::sqrt(d2));
                                    let f: f32 = (__read7 * ((inv * inv) * inv));
                                    ax = (ax + (dx * f));
                                    ay = (ay + (dy * f));
                                    az = (az + (dz * f));
                                    __lanes_ax[__l] = ax;
                                    __lanes_ay[__l] = ay;
                                    __lanes_az[__l] = az;
                                }
                            }
                            for __l in 0..__n {
                                __ctx_ax.set(__w0 as usize + __l, __lanes_ax[__l]);
                                __ctx_ay.set(__w0 as usize + __l, __lanes_ay[__l]);
                                __ctx_az.set(__w0 as usize + __l, __lanes_az[__l]);
                            }
                        },
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let mut px: f32 = __ctx_px.get(__w as usize);
                            let mut py: f32 = __ctx_py.get(__w as usize);
                            let mut pz: f32 = __ctx_pz.get(__w as usize);
                            let mut ax: f32 = __ctx_ax.get(__w as usize);
                            let mut ay: f32 = __ctx_ay.get(__w as usize);
                            let mut az: f32 = __ctx_az.get(__w as usize);
                            for k in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(NBODY_TILE)) {
                                let dx: f32 = (sp.get((k, 0usize)) - px);
                                let dy: f32 = (sp.get((k, 1usize)) - py);
                                let dz: f32 = (sp.get((k, 2usize)) - pz);
                                let d2: f32 = ((((dx * dx) + (dy * dy)) + (dz * dz))
                                    + ::rumba::kernel::__macro::ty::<f32>(SOFTENING2));
                                let inv: f32 = (1f32 / <f32>::sqrt(d2));
                                let f: f32 = (sp.get((k, 3usize)) * ((inv * inv) * inv));
                                ax = (ax + (dx * f));
                                ay = (ay + (dy * f));
                                az = (az + (dz * f));
                            }
                            __ctx_ax.set(__w as usize, ax);
                            __ctx_ay.set(__w as usize, ay);
                            __ctx_az.set(__w as usize, az);
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
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let mut px: f32 = __ctx_px.get(__w as usize);
                        let mut py: f32 = __ctx_py.get(__w as usize);
                        let mut pz: f32 = __ctx_pz.get(__w as usize);
                        let mut ax: f32 = __ctx_ax.get(__w as usize);
                        let mut ay: f32 = __ctx_ay.get(__w as usize);
                        let mut az: f32 = __ctx_az.get(__w as usize);
                        if (i < n) {
                            let vx: f32 = (vel.get((i, 0usize)) + (ax * dt));
                            let vy: f32 = (vel.get((i, 1usize)) + (ay * dt));
                            let vz: f32 = (vel.get((i, 2usize)) + (az * dt));
                            vel_out.set((i, 0usize), vx);
                            vel_out.set((i, 1usize), vy);
                            vel_out.set((i, 2usize), vz);
                            vel_out.set((i, 3usize), 0f32);
                            pos_out.set((i, 0usize), (px + (vx * dt)));
                            pos_out.set((i, 1usize), (py + (vy * dt)));
                            pos_out.set((i, 2usize), (pz + (vz * dt)));
                            pos_out.set((i, 3usize), pos.get((i, 3usize)));
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
            let pos = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let vel = ::rumba::kernel::wil::GlobalIn::<
                f32,
                2usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let pos_out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            let vel_out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            let dt: f32 = <f32 as ::rumba::kernel::Param>::view(
                &__args[4usize],
                4usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &pos, &vel, &pos_out, &vel_out, dt),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &pos, &vel, &pos_out, &vel_out, dt),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &pos, &vel, &pos_out, &vel_out, dt),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &pos, &vel, &pos_out, &vel_out, dt),
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
// ---- sgemm
// uses: ["Read", "Read", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            alpha: f32,
            beta: f32,
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
            let sa = __blk.shared_array::<f32, 2usize>([SG_TILE, SG_DEPTH]);
            let sb = __blk.shared_array::<f32, 2usize>([SG_DEPTH, SG_TILE]);
            let __loc_acc = __blk.local_arrays::<f32, 2usize>([SG_WORK, SG_WORK]);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tx: usize = (((__tid).x) as usize);
                        let ty: usize = (((__tid).y) as usize);
                        let tid: usize = ((ty)
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                            ))
                            .wrapping_add(tx);
                        let acc = __loc_acc.of(__w);
                        acc.zero();
                    },
                );
            let row0: usize = ((((__bidx).y) as usize))
                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_TILE));
            let col0: usize = ((((__bidx).x) as usize))
                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_TILE));
            let n: usize = c.shape()[0];
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let acc = __loc_acc.of(__w);
                        for r in (0usize)..(::rumba::kernel::__macro::ty::<
                            usize,
                        >(SG_WORK)) {
                            for q in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(SG_WORK)) {
                                acc.set((r, q), 0f32);
                            }
                        }
                    },
                );
            let mut k0: usize = 0usize;
            while (k0 < n) {
                let __trues1: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tx: usize = (((__tid).x) as usize);
                            let ty: usize = (((__tid).y) as usize);
                            let tid: usize = ((ty)
                                .wrapping_mul(
                                    ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                ))
                                .wrapping_add(tx);
                            for l in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(SG_WORK)) {
                                let e: usize = (tid)
                                    .wrapping_add(
                                        ((l)
                                            .wrapping_mul(
                                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                            ))
                                            .wrapping_mul(
                                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                            ),
                                    );
                                let ar: usize = (e
                                    / ::rumba::kernel::__macro::ty::<usize>(SG_DEPTH));
                                let ak: usize = (e
                                    % ::rumba::kernel::__macro::ty::<usize>(SG_DEPTH));
                                sa.set(
                                    (ar, ak),
                                    (if (((row0).wrapping_add(ar) < n)
                                        && ((k0).wrapping_add(ak) < n))
                                    {
                                        a.get(((row0).wrapping_add(ar), (k0).wrapping_add(ak)))
                                    } else {
                                        0f32
                                    }),
                                );
                                let bk: usize = (e
                                    / ::rumba::kernel::__macro::ty::<usize>(SG_TILE));
                                let bc: usize = (e
                                    % ::rumba::kernel::__macro::ty::<usize>(SG_TILE));
                                sb.set(
                                    (bk, bc),
                                    (if (((k0).wrapping_add(bk) < n)
                                        && ((col0).wrapping_add(bc) < n))
                                    {
                                        b.get(((k0).wrapping_add(bk), (col0).wrapping_add(bc)))
                                    } else {
                                        0f32
                                    }),
                                );
                            }
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
                            let acc = __loc_acc.of(__w);
                            for k in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(SG_DEPTH)) {
                                for r_2 in (0usize)..(::rumba::kernel::__macro::ty::<
                                    usize,
                                >(SG_WORK)) {
                                    let av: f32 = sa
                                        .get((
                                            (ty)
                                                .wrapping_add(
                                                    (r_2)
                                                        .wrapping_mul(
                                                            ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                                        ),
                                                ),
                                            k,
                                        ));
                                    for q_2 in (0usize)..(::rumba::kernel::__macro::ty::<
                                        usize,
                                    >(SG_WORK)) {
                                        {
                                            let __rumba_i = (r_2, q_2);
                                            let __rumba_v: f32 = (av
                                                * sb
                                                    .get((
                                                        k,
                                                        (tx)
                                                            .wrapping_add(
                                                                (q_2)
                                                                    .wrapping_mul(
                                                                        ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                                                    ),
                                                            ),
                                                    )));
                                            acc.set(__rumba_i, (acc.get(__rumba_i) + __rumba_v));
                                        }
                                    }
                                }
                            }
                        },
                    );
                let _ = match __blk.barrier(&__BS2, __trues3) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
                k0 = (k0).wrapping_add(::rumba::kernel::__macro::ty::<usize>(SG_DEPTH));
            }
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tx: usize = (((__tid).x) as usize);
                        let ty: usize = (((__tid).y) as usize);
                        let acc = __loc_acc.of(__w);
                        for r_3 in (0usize)..(::rumba::kernel::__macro::ty::<
                            usize,
                        >(SG_WORK)) {
                            for q_3 in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(SG_WORK)) {
                                let i: usize = ((row0).wrapping_add(ty))
                                    .wrapping_add(
                                        (r_3)
                                            .wrapping_mul(
                                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                            ),
                                    );
                                let j: usize = ((col0).wrapping_add(tx))
                                    .wrapping_add(
                                        (q_3)
                                            .wrapping_mul(
                                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                            ),
                                    );
                                if ((i < n) && (j < n)) {
                                    c.set(
                                        (i, j),
                                        ((alpha * acc.get((r_3, q_3))) + (beta * c.get((i, j)))),
                                    );
                                }
                            }
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
            let alpha: f32 = <f32 as ::rumba::kernel::Param>::view(
                &__args[3usize],
                3usize,
            )?;
            let beta: f32 = <f32 as ::rumba::kernel::Param>::view(
                &__args[4usize],
                4usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c, alpha, beta),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c, alpha, beta),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c, alpha, beta),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b, &c, alpha, beta),
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
