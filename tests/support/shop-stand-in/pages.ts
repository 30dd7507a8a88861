/**
 * Minimal product pages of the shops the link preview reads, modelled on the public structure of
 * each shop's real page (where the item data sits: JSON-LD, microdata, product meta or the shop's
 * own ids and classes), written for the shop stand-in. Images are https URLs on each shop's own
 * image host and are never fetched. SHOP_SAMPLES says what a preview of each page must show.
 */

export type ShopSample = {
  shop: string
  url: string
  title: string
  priceYen: number
  imageUrl: string
}

export type ShopPage = ShopSample & {
  html: string
  /** The Content-Type charset the page is served with (bytes encoded to match). */
  charset: 'utf-8' | 'shift_jis' | 'euc-jp'
  /** Leave the charset out of the Content-Type: the page's <meta charset> says it. */
  charsetInMetaOnly?: boolean
}

const mercari: ShopPage = {
  shop: 'Mercari',
  url: 'https://jp.mercari.com/item/m12345678901',
  title: 'ポケモンカード ピカチュウ プロモ 美品',
  priceYen: 12800,
  imageUrl: 'https://static.mercdn.net/item/detail/orig/photos/m12345678901_1.jpg',
  charset: 'utf-8',
  html: `<!doctype html>
<html lang="ja"><head><meta charset="utf-8">
<title>ポケモンカード ピカチュウ プロモ 美品 - メルカリ</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",
"name":"ポケモンカード ピカチュウ プロモ 美品",
"image":["https://static.mercdn.net/item/detail/orig/photos/m12345678901_1.jpg"],
"offers":{"@type":"Offer","price":"12800","priceCurrency":"JPY","availability":"https://schema.org/InStock",
"shippingDetails":{"@type":"OfferShippingDetails","shippingRate":{"@type":"MonetaryAmount","value":0,"currency":"JPY"}}}}</script>
</head><body><div id="__next"><h1>ポケモンカード ピカチュウ プロモ 美品</h1>
<div data-testid="price"><span>¥</span><span>12,800</span></div><p>送料込み(出品者負担)</p></div></body></html>`,
}

const amazon: ShopPage = {
  shop: 'Amazon.co.jp',
  url: 'https://www.amazon.co.jp/dp/B0EXAMPLE1',
  title: 'タイガー 水筒 500ml ステンレスボトル & ポーチ付き',
  priceYen: 4980,
  imageUrl: 'https://m.media-amazon.com/images/I/51ExampleL._AC_SL1500_.jpg',
  charset: 'utf-8',
  html: `<!doctype html>
<html lang="ja-jp"><head><meta charset="utf-8"><title>Amazon.co.jp: タイガー 水筒</title></head>
<body><div id="dp-container">
<div id="titleSection"><h1 id="title"><span id="productTitle" class="a-size-large">
  タイガー 水筒 500ml ステンレスボトル &amp; ポーチ付き
</span></h1></div>
<div id="imgTagWrapperId"><img id="landingImage" alt="タイガー 水筒"
  src="https://m.media-amazon.com/images/I/51ExampleL._AC_SX425_.jpg"
  data-old-hires="https://m.media-amazon.com/images/I/51ExampleL._AC_SL1500_.jpg"></div>
<div id="corePrice_feature_div"><span class="a-price aok-align-center" data-a-size="xl">
  <span class="a-offscreen">￥4,980</span><span aria-hidden="true"><span class="a-price-symbol">￥</span><span class="a-price-whole">4,980</span></span>
</span></div>
<div id="variation_color_name"><label>色:</label> <span class="selection">ミントグリーン</span></div>
<div id="availability"><span class="a-size-medium a-color-success">在庫あり。</span></div>
<div id="mir-layout-DELIVERY_BLOCK">お届け日時: 明日</div>
</div></body></html>`,
}

const rakuten: ShopPage = {
  shop: 'Rakuten Ichiba',
  url: 'https://item.rakuten.co.jp/example-shop/item-001/',
  title: '【送料無料】国産 今治タオル フェイスタオル 5枚セット',
  priceYen: 3980,
  imageUrl: 'https://tshop.r10s.jp/example-shop/cabinet/item-001.jpg',
  charset: 'euc-jp',
  html: `<!DOCTYPE html>
<html><head><meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">
<title>【楽天市場】国産 今治タオル</title></head>
<body><div itemscope itemtype="http://schema.org/Product">
<span class="item_name" itemprop="name">【送料無料】国産 今治タオル フェイスタオル 5枚セット</span>
<img itemprop="image" src="https://tshop.r10s.jp/example-shop/cabinet/item-001.jpg" alt="">
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer">
<meta itemprop="priceCurrency" content="JPY">
<span class="price2" itemprop="price" content="3980">3,980円</span>
<link itemprop="availability" href="http://schema.org/InStock">
</div></div></body></html>`,
}

const yahooShopping: ShopPage = {
  shop: 'Yahoo! Shopping',
  url: 'https://store.shopping.yahoo.co.jp/example-store/item-002.html',
  title: '無印良品 ポリプロピレン収納ケース 引出式 深型',
  priceYen: 2480,
  imageUrl: 'https://item-shopping.c.yimg.jp/i/n/example-store_item-002',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="UTF-8"><title>無印良品 収納ケース - Yahoo!ショッピング</title>
<script type="application/ld+json">{ this is not json }</script>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"BreadcrumbList","itemListElement":[]},
{"@type":["Product"],"name":"無印良品 ポリプロピレン収納ケース 引出式 深型",
"image":{"@type":"ImageObject","url":"https://item-shopping.c.yimg.jp/i/n/example-store_item-002"},
"size":"幅34×奥行44.5×高さ30cm",
"offers":{"@type":"AggregateOffer","lowPrice":"2,480","highPrice":"2980","priceCurrency":"JPY",
"availability":"http://schema.org/InStock"}}]}</script>
</head><body><h1 class="mdItemName">無印良品 ポリプロピレン収納ケース 引出式 深型</h1></body></html>`,
}

const yahooAuctions: ShopPage = {
  shop: 'Yahoo! Auctions',
  url: 'https://auctions.yahoo.co.jp/jp/auction/x1234567890',
  title: 'ニンテンドー ゲームボーイカラー 本体 クリアパープル 動作確認済み',
  priceYen: 15000,
  imageUrl:
    'https://auctions.c.yimg.jp/images.auctions.yahoo.co.jp/image/dr000/auc0101/users/x1234567890-1.jpg',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8">
<meta property="og:title" content="ニンテンドー ゲームボーイカラー 本体 クリアパープル 動作確認済み">
<meta property="og:image" content="https://auctions.c.yimg.jp/images.auctions.yahoo.co.jp/image/dr000/auc0101/users/x1234567890-1.jpg">
<title>ニンテンドー ゲームボーイカラー - Yahoo!オークション</title></head>
<body><div class="ProductInformation">
<div class="Price Price--current" data-auction-price="15000"><dl><dt class="Price__title">現在</dt>
<dd class="Price__value">15,000円<span class="Price__tax">（税 0 円）</span></dd></dl></div>
<div class="Price__postage">送料 1,200円</div>
<ul class="ProductDetail__items"><li class="ProductDetail__item"><dt>終了日時</dt>
<dd><time class="ProductDetail__endTime" datetime="2026-12-06T22:10:00+09:00">12月6日（日）22時10分</time></dd></li></ul>
</div></body></html>`,
}

const surugaYa: ShopPage = {
  shop: 'Suruga-ya',
  url: 'https://www.suruga-ya.jp/product/detail/128000001',
  title: 'スーパーファミコンソフト クロノ・トリガー (箱説あり)',
  priceYen: 1980,
  imageUrl: 'https://www.suruga-ya.jp/database/pics_light/game/128000001.jpg',
  charset: 'shift_jis',
  charsetInMetaOnly: true,
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="Shift_JIS"><title>駿河屋 -クロノ・トリガー</title></head>
<body><div class="container_suru">
<div class="main-pro-img"><img src="/database/pics_light/game/128000001.jpg" alt=""></div>
<h1 id="item_title" class="h1_title_product">
  スーパーファミコンソフト クロノ・トリガー (箱説あり)
</h1>
<div class="price_group"><label>中古：</label><span class="text-price-detail">1,980円 (税込)</span></div>
<p class="stock-status">在庫あり</p>
</div></body></html>`,
}

const mandarake: ShopPage = {
  shop: 'Mandarake',
  url: 'https://order.mandarake.co.jp/order/detailPage/item?itemCode=1234567890&ref=list',
  title: '鳥山明 ドラゴンボール 原画集 初版',
  priceYen: 3300,
  imageUrl: 'https://img.mandarake.co.jp/webshopimg/01/00/001/0100001001/010000100101.jpg',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="UTF-8"><title>ドラゴンボール 原画集 | まんだらけ</title></head>
<body><div class="content">
<div class="subject"><h1>鳥山明 ドラゴンボール 原画集 初版</h1></div>
<div class="pic"><img src="https://img.mandarake.co.jp/webshopimg/01/00/001/0100001001/010000100101.jpg" alt=""></div>
<div class="price"><p>3,300円</p></div>
<div class="addcart"><input type="button" value="カートに入れる"></div>
</div></body></html>`,
}

const amiami: ShopPage = {
  shop: 'AmiAmi',
  url: 'https://www.amiami.jp/top/detail/detail?gcode=FIGURE-123456',
  title: 'ねんどろいど 初音ミク 16th Anniversary Ver.',
  priceYen: 6600,
  imageUrl: 'https://img.amiami.jp/images/product/main/234/FIGURE-123456.jpg',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8">
<meta property="og:type" content="product">
<meta property="og:title" content="ねんどろいど 初音ミク 16th Anniversary Ver.">
<meta property="og:image" content="https://img.amiami.jp/images/product/main/234/FIGURE-123456.jpg">
<meta property="product:price:amount" content="6600">
<meta property="product:price:currency" content="JPY">
<meta property="product:availability" content="instock">
<title>ねんどろいど 初音ミク | あみあみ</title></head>
<body><div id="app"></div></body></html>`,
}

const zozo: ShopPage = {
  shop: 'ZOZOTOWN',
  url: 'https://zozo.jp/shop/exampleshop/goods/12345678/?did=98765432',
  title: 'オーバーサイズ スウェット パーカー',
  priceYen: 8800,
  imageUrl: 'https://c.imgz.jp/678/12345678/12345678b_1_d_500.jpg',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8"><title>オーバーサイズ スウェット パーカー | ZOZOTOWN</title>
<script type="application/ld+json">[{"@context":"http://schema.org","@type":"Product",
"name":"オーバーサイズ スウェット パーカー","image":"//c.imgz.jp/678/12345678/12345678b_1_d_500.jpg",
"color":"チャコールグレー","size":"L",
"offers":[{"@type":"Offer","price":"¥8,800","priceCurrency":"JPY","availability":"http://schema.org/InStock"}]}]</script>
</head><body><h1 class="p-goods-information__heading">オーバーサイズ スウェット パーカー</h1></body></html>`,
}

const uniqlo: ShopPage = {
  shop: 'Uniqlo',
  url: 'https://www.uniqlo.com/jp/ja/products/E123456-000/00?colorDisplayCode=09',
  title: 'ヒートテックエクストラウォームクルーネックT（長袖）',
  priceYen: 2990,
  imageUrl: 'https://image.uniqlo.com/UQ/ST3/jp/imagesgoods/123456/item/jpgoods_09_123456_3x4.jpg',
  charset: 'utf-8',
  html: `<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8">
<meta property="og:title" content="ヒートテックエクストラウォームクルーネックT（長袖）">
<meta property="og:image" content="https://image.uniqlo.com/UQ/ST3/jp/imagesgoods/123456/item/jpgoods_09_123456_3x4.jpg">
<meta property="product:price:amount" content="2990">
<meta property="product:price:currency" content="JPY">
<title>ヒートテックエクストラウォームクルーネックT（長袖） | ユニクロ</title></head>
<body><div id="root"></div></body></html>`,
}

export const SHOP_PAGES: readonly ShopPage[] = [
  mercari,
  amazon,
  rakuten,
  yahooShopping,
  yahooAuctions,
  surugaYa,
  mandarake,
  amiami,
  zozo,
  uniqlo,
]

export const SHOP_SAMPLES: readonly ShopSample[] = SHOP_PAGES.map(
  ({ shop, url, title, priceYen, imageUrl }) => ({
    shop,
    url,
    title,
    priceYen,
    imageUrl,
  }),
)

/** A shop page after a redesign: valid HTML, no item data a reader knows. */
export const CHANGED_PAGE = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>メンテナンス中</title></head>
<body><main><h2>ただいまメンテナンス中です</h2><p>しばらくしてから再度アクセスしてください。</p></main></body></html>`
