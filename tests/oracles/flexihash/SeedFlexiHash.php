<?php
/*
 * The user's FlexiHash class, copied verbatim from the document that started the project
 * shared/seeds/002_260807e5c3b111e9.txt (the "一致性Hash分布" example), with ONE change:
 * PHP 8 removed the `$str{$i}` string-offset syntax, so `ord($md5{$i})` in toHash() is written
 * `ord($md5[$i])` (same meaning). Nothing else is changed, quirks included ($i incremented twice
 * per loop; lookup() falling back to $this->serverList[count - 1], usually null).
 * Used by tests/oracles/flexihash/seed_driver.php.
 */

class FlexiHash{
	private $serverList = array();
	private $isSorted = false;
	
	/**
	 * @des Hash方法，首先通过md5把key处理成一个32位字符串，取其前8字符，再经过Hash算法处理成一个整数并返回，然后映射到其中一台缓存服务器。
	 * @param string $key 键值
	 * @return int 
	*/
	
	public function toHash($key){
		$md5 = substr(md5($key), 0, 8);
		$seed = 31;
		$hash = 0;
		for($i = 0; $i < 8; $i++){
			$hash = $hash * $seed + ord($md5[$i]);
			$i++;	
		}
		return $hash & 0x7FFFFFFF;
	}
	
	//添加服务器
	/**
	 *
	 *首先通过toHash函数计算出服务器的Hash值，
	  通过此Hash值定位服务器到列表上的某个位置。
	  因为此时服务器列表发生了变化，所以应该把排序标识$isSorted设置为false。 
	 *
	 */
	public function addServer($server){
		$hash = $this->toHash($server);
		if(!isset($this->serverList[$hash])){
			$this->serverList[$hash] = $server;	
		}
		$this->isSorted = false;
		return true;
	}
	
	//移除服务器
	/**
	 *首先通过toHash函数计算出服务器的Hash值，
	  以此Hash值作为要删除服务器的索引，
	  把此服务器从服务器列表中删除。
	  因为此时服务器列表发生了变化，所以把排序标识$isSorted设置为falsh。
	 *
	 */
	public function removeServer($server){
		$hash = $this->toHash($server);
		if(isset($this->serverList[$hash])){
			unset($this->serverList[$hash]);	
		}
		$this->isSorted = false;
		return true;
	}
	
	//找到合适的服务器返回
	/**
	 *首先通过toHash函数计算出key的Hash值，然后判断服务器列表是否排过序，
	  如果没有，就先对服务器列表进行倒序排序操作。
	  倒序排序的作用是把服务器列表转化成一个逆时针的圆环。
	  最后遍历服务器列表，找到一个合适的服务器返回。
	 *
	 */
	public function lookup($key){
		$hash = $this->toHash($key);
		if(!$this->isSorted){
			krsort($this->serverList, SORT_NUMERIC);
			$this->isSorted = true;	
		}	
		foreach($this->serverList as $pos => $server){
			if($hash >= $pos){
				return $server;	
			}	
		}
		return $this->serverList[count($this->serverList) - 1];
	}	
}
